import { AppstoreOutlined } from '@ant-design/icons';
import { AreaChartOutlined } from '@ant-design/icons';
import { BankOutlined } from '@ant-design/icons';
import { CalendarOutlined } from '@ant-design/icons';
import { ContactsOutlined } from '@ant-design/icons';
import { DollarOutlined } from '@ant-design/icons';
import { FileDoneOutlined } from '@ant-design/icons';
import { FileTextOutlined } from '@ant-design/icons';
import { FundOutlined } from '@ant-design/icons';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { ShopOutlined } from '@ant-design/icons';
import { SwapOutlined } from '@ant-design/icons';
import { UserAddOutlined } from '@ant-design/icons';
import { CloudUploadOutlined } from '@ant-design/icons';
import { TeamOutlined } from '@ant-design/icons';
import { TableOutlined } from '@ant-design/icons';
import { BellOutlined } from '@ant-design/icons';
import { AuditOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * The menu's icons. Hidden from screen readers: antd labels an icon with its own name ("dollar", "appstore"), which
 * would be read before each entry's translated text.
 */
export const MENU_ICONS: Record<string, ReactNode> = {
  dashboard: <AppstoreOutlined aria-hidden="true" />,
  invoices: <DollarOutlined aria-hidden="true" />,
  forms: <FileTextOutlined aria-hidden="true" />,
  yearEnd: <FileDoneOutlined aria-hidden="true" />,
  transfers: <SwapOutlined aria-hidden="true" />,
  reports: <FundOutlined aria-hidden="true" />,
  analytics: <AreaChartOutlined aria-hidden="true" />,
  handlers: <ShopOutlined aria-hidden="true" />,
  contacts: <ContactsOutlined aria-hidden="true" />,
  help: <QuestionCircleOutlined aria-hidden="true" />,
  council: <BankOutlined aria-hidden="true" />,
  requests: <UserAddOutlined aria-hidden="true" />,
  seasons: <CalendarOutlined aria-hidden="true" />,
  publishing: <CloudUploadOutlined aria-hidden="true" />,
  users: <TeamOutlined aria-hidden="true" />,
  board: <TableOutlined aria-hidden="true" />,
  reminders: <BellOutlined aria-hidden="true" />,
  audit: <AuditOutlined aria-hidden="true" />,
  certification: <SafetyCertificateOutlined aria-hidden="true" />,
};

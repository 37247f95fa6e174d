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

export const MENU_ICONS: Record<string, ReactNode> = {
  dashboard: <AppstoreOutlined />,
  invoices: <DollarOutlined />,
  forms: <FileTextOutlined />,
  yearEnd: <FileDoneOutlined />,
  transfers: <SwapOutlined />,
  reports: <FundOutlined />,
  analytics: <AreaChartOutlined />,
  handlers: <ShopOutlined />,
  contacts: <ContactsOutlined />,
  help: <QuestionCircleOutlined />,
  council: <BankOutlined />,
  requests: <UserAddOutlined />,
  seasons: <CalendarOutlined />,
  publishing: <CloudUploadOutlined />,
  users: <TeamOutlined />,
  board: <TableOutlined />,
  reminders: <BellOutlined />,
  audit: <AuditOutlined />,
  certification: <SafetyCertificateOutlined />,
};

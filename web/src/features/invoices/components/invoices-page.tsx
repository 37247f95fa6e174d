import type { ReactNode } from 'react';
import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { Card, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { FilingPage } from '../../../components/filing-page';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate, formatMoney } from '../../../lib/i18n/format';
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { fileName, fileUrl, one, str, todayIso } from '../../../lib/portal/entities';
import { centsOf, invoiceStatus, openTotal, useInvoices, type InvoiceStatus } from '../../../lib/portal/invoices';
import { useSession } from '../../../lib/session/use-session';

const STATUS_COLOR: Record<InvoiceStatus, string> = { open: 'blue', paid: 'green', overdue: 'red' };

function FileLink({ file, label, icon }: { file: Entity | null; label: string; icon: ReactNode }) {
  const url = fileUrl(file);
  if (!url) return null;
  return (
    <a href={url} download={fileName(file)}>
      <Space size={4}>
        {icon}
        {label}
      </Space>
    </a>
  );
}

function InvoicesTable({ invoices }: { invoices: Entity[] }) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  const today = todayIso();
  const total = openTotal(invoices, today);
  const month = (inv: Entity) => str(one(inv, 'field_reporting_period'), 'field_period_month') ?? '';
  const columns: ColumnsType<Entity> = [
    {
      key: 'number',
      title: t('invoices.number'),
      render: (_, inv) => <strong>{str(inv, 'field_invoice_number')}</strong>,
      sorter: (a, b) => (str(a, 'field_invoice_number') ?? '').localeCompare(str(b, 'field_invoice_number') ?? ''),
    },
    {
      key: 'period',
      title: t('invoices.period'),
      render: (_, inv) => (month(inv) ? formatDate(`${month(inv)}-01`, lang, { month: 'long', year: 'numeric' }) : ''),
      sorter: (a, b) => month(a).localeCompare(month(b)),
    },
    {
      key: 'amount',
      title: t('invoices.amount'),
      align: 'end',
      render: (_, inv) => <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(str(inv, 'field_amount_due'), lang)}</span>,
      sorter: (a, b) => centsOf(a) - centsOf(b),
    },
    {
      key: 'due',
      title: t('invoices.dueDate'),
      render: (_, inv) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(str(inv, 'field_due_date'), lang)}</span>,
      sorter: (a, b) => (str(a, 'field_due_date') ?? '').localeCompare(str(b, 'field_due_date') ?? ''),
      defaultSortOrder: 'descend',
    },
    {
      key: 'status',
      title: t('invoices.status'),
      render: (_, inv) => {
        const s = invoiceStatus(inv, today);
        return <Tag color={STATUS_COLOR[s]}>{t(`invoices.status_${s}`)}</Tag>;
      },
      sorter: (a, b) => invoiceStatus(a, today).localeCompare(invoiceStatus(b, today)),
      filters: (['open', 'overdue', 'paid'] as InvoiceStatus[]).map((s) => ({ text: t(`invoices.status_${s}`), value: s })),
      onFilter: (value, inv) => invoiceStatus(inv, today) === value,
    },
    {
      key: 'files',
      title: t('invoices.downloads'),
      render: (_, inv) => (
        <Space direction="vertical" size={2}>
          <FileLink file={one(inv, 'field_invoice_pdf')} label={t('invoices.invoicePdf')} icon={<DownloadOutlined aria-hidden="true" />} />
          <FileLink file={one(one(inv, 'field_form_1'), 'field_form_1_pdf')} label={t('invoices.form1Pdf')} icon={<FilePdfOutlined aria-hidden="true" />} />
        </Space>
      ),
    },
  ];
  return (
    <Table<Entity>
      rowKey="id"
      columns={columns}
      dataSource={invoices}
      pagination={{ pageSize: 12, hideOnSinglePage: true, showSizeChanger: false }}
      scroll={{ x: 760 }}
      summary={() => (
        <Table.Summary fixed="bottom">
          <Table.Summary.Row style={{ background: 'rgba(160, 97, 42, 0.08)' }}>
            <Table.Summary.Cell index={0} colSpan={2}>
              <strong>{t('invoices.totalOpen', { count: total.count })}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="end">
              <strong style={{ whiteSpace: 'nowrap' }} data-testid="invoices-open-total">
                {formatMoney(total.amount, lang)}
              </strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} colSpan={3} />
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

function InvoicesContent() {
  const { t } = useTranslation('filing');
  const { t: tc } = useTranslation();
  useDocumentTitle(tc('nav.invoices'));
  const { profile } = useSession();
  const query = useInvoices(profile.handlerUid);
  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
        {tc('nav.invoices')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('invoices.intro')}</Typography.Paragraph>
      {!profile.handlerUid ? (
        <Typography.Paragraph>{t('dashboard.noHandler')}</Typography.Paragraph>
      ) : (
        <QueryState query={query} isEmpty={(l) => l.length === 0} emptyText={t('invoices.empty')}>
          {(list) => <InvoicesTable invoices={list} />}
        </QueryState>
      )}
    </Card>
  );
}

export default function InvoicesPage() {
  return (
    <FilingPage>
      <InvoicesContent />
    </FilingPage>
  );
}

import { useMemo, type Key, type ReactNode } from 'react';
import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { Alert, Card, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useViewport } from '../../../components/use-viewport';
import { FilingPage } from '../../../components/filing-page';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate, formatMoney } from '../../../lib/i18n/format';
import { attr, fileName, fileUrl, one, todayIso, type ApiEntity } from '../../../lib/portal/entities';
import {
  byUrgency,
  centsOf,
  invoiceStatus,
  openTotal,
  overdueTotal,
  useInvoices,
  type Invoice,
  type InvoiceStatus,
} from '../../../lib/portal/invoices';
import { useSession } from '../../../lib/session/use-session';
import { TransferLines } from './transfer-lines';

const STATUS_COLOR: Record<InvoiceStatus, string> = { open: 'blue', paid: 'green', overdue: 'red' };

function FileLink({ file, label, icon }: { file: ApiEntity<'file--file'> | null; label: string; icon: ReactNode }) {
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

function InvoiceDownloads({ inv, t }: { inv: Invoice; t: TFunction }) {
  return (
    <Space direction="vertical" size={2}>
      <FileLink
        file={one(inv, 'field_invoice_pdf')}
        label={t('invoices.invoicePdf')}
        icon={<DownloadOutlined aria-hidden="true" />}
      />
      <FileLink
        file={one(one(inv, 'field_form_1'), 'field_form_1_pdf')}
        label={t('invoices.form1Pdf')}
        icon={<FilePdfOutlined aria-hidden="true" />}
      />
    </Space>
  );
}

/** Below this width the six columns (760 px) do not fit beside the menu: two columns instead. */
const COMPACT_BELOW_PX = 992;

/** The columns of a desktop or wide tablet: one fact a column, each sortable. */
function wideColumns(t: TFunction, lang: string, today: string): ColumnsType<Invoice> {
  const f = invoiceFields(t, lang, today);
  return [
    {
      key: 'number',
      title: t('invoices.number'),
      render: (_, inv) => (
        <>
          <strong>{f.number(inv)}</strong>
          <TransferLines inv={inv} t={t} lang={lang} />
        </>
      ),
      sorter: f.byNumber,
    },
    { key: 'period', title: t('invoices.period'), render: (_, inv) => f.period(inv), sorter: f.byPeriod },
    { key: 'amount', title: t('invoices.amount'), align: 'end', render: (_, inv) => f.amount(inv), sorter: f.byAmount },
    { key: 'due', title: t('invoices.dueDate'), render: (_, inv) => f.due(inv), sorter: f.byDue },
    {
      key: 'status',
      title: t('invoices.status'),
      render: (_, inv) => f.status(inv),
      sorter: f.byStatus,
      ...f.statusFilter,
    },
    { key: 'files', title: t('invoices.downloads'), render: (_, inv) => <InvoiceDownloads inv={inv} t={t} /> },
  ];
}

/**
 * The columns of a phone or a narrow tablet (narrower than 992 px): the six columns need 760 px, and
 * scrolled sideways there, hiding the amount and status on a phone. Two columns instead: what the invoice is (number,
 * month, due date, its files), and what it asks (amount and status), still sorted newest first and filtered by status.
 */
function compactColumns(t: TFunction, lang: string, today: string): ColumnsType<Invoice> {
  const f = invoiceFields(t, lang, today);
  return [
    {
      key: 'number',
      title: t('invoices.number'),
      render: (_, inv) => (
        <Space direction="vertical" size={2}>
          <strong>{f.number(inv)}</strong>
          <Typography.Text type="secondary">{f.period(inv)}</Typography.Text>
          <Typography.Text type="secondary">
            {t('packages.due', { date: formatDate(attr(inv, 'field_due_date'), lang) })}
          </Typography.Text>
          <TransferLines inv={inv} t={t} lang={lang} />
          <InvoiceDownloads inv={inv} t={t} />
        </Space>
      ),
      sorter: f.byDue,
    },
    {
      key: 'amount',
      title: t('invoices.amount'),
      align: 'end',
      render: (_, inv) => (
        <Space direction="vertical" size={4} align="end">
          {f.amount(inv)}
          {f.status(inv)}
        </Space>
      ),
      sorter: f.byAmount,
      ...f.statusFilter,
    },
  ];
}

/** How each fact of an invoice is shown and ordered, for both layouts. */
function invoiceFields(t: TFunction, lang: string, today: string) {
  const month = (inv: Invoice) => attr(one(inv, 'field_reporting_period'), 'field_period_month') ?? '';
  const text = (inv: Invoice, field: 'field_invoice_number' | 'field_due_date') => attr(inv, field) ?? '';
  return {
    number: (inv: Invoice) => attr(inv, 'field_invoice_number'),
    period: (inv: Invoice) =>
      month(inv) ? formatDate(`${month(inv)}-01`, lang, { month: 'long', year: 'numeric' }) : '',
    amount: (inv: Invoice) => (
      <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(attr(inv, 'field_amount_due'), lang)}</span>
    ),
    due: (inv: Invoice) => (
      <span style={{ whiteSpace: 'nowrap' }}>{formatDate(attr(inv, 'field_due_date'), lang)}</span>
    ),
    status: (inv: Invoice) => {
      const s = invoiceStatus(inv, today);
      return (
        <Tag color={STATUS_COLOR[s]} style={{ marginInlineEnd: 0 }}>
          {t(`invoices.status_${s}`)}
        </Tag>
      );
    },
    byNumber: (a: Invoice, b: Invoice) =>
      text(a, 'field_invoice_number').localeCompare(text(b, 'field_invoice_number')),
    byPeriod: (a: Invoice, b: Invoice) => month(a).localeCompare(month(b)),
    byAmount: (a: Invoice, b: Invoice) => centsOf(a) - centsOf(b),
    byDue: (a: Invoice, b: Invoice) => text(a, 'field_due_date').localeCompare(text(b, 'field_due_date')),
    byStatus: (a: Invoice, b: Invoice) => invoiceStatus(a, today).localeCompare(invoiceStatus(b, today)),
    statusFilter: {
      filters: (['open', 'overdue', 'paid'] as InvoiceStatus[]).map((s) => ({
        text: t(`invoices.status_${s}`),
        value: s,
      })),
      onFilter: (value: boolean | Key, inv: Invoice) => invoiceStatus(inv, today) === value,
    },
  };
}

function InvoicesTable({ invoices }: { invoices: Invoice[] }) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  const today = todayIso();
  const total = openTotal(invoices, today);
  const sorted = useMemo(() => byUrgency(invoices, today), [invoices, today]);
  const compact = useViewport().width < COMPACT_BELOW_PX;
  const columns = compact ? compactColumns(t, lang, today) : wideColumns(t, lang, today);
  // The open total sits under the amounts: after the number and period on a wide screen, after the invoice otherwise.
  const before = compact ? 1 : 2;
  return (
    <Table<Invoice>
      rowKey="id"
      columns={columns}
      // Overdue first, then open, then paid (newest due date first within each), until a column is sorted.
      dataSource={sorted}
      pagination={{ pageSize: 12, hideOnSinglePage: true, showSizeChanger: false }}
      scroll={compact ? undefined : { x: 760 }}
      summary={() => (
        <Table.Summary fixed="bottom">
          <Table.Summary.Row style={{ background: 'rgba(160, 97, 42, 0.08)' }}>
            <Table.Summary.Cell index={0} colSpan={before}>
              <strong>{t('invoices.totalOpen', { count: total.count })}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={before} align="end">
              <strong style={{ whiteSpace: 'nowrap' }} data-testid="invoices-open-total">
                {formatMoney(total.amount, lang)}
              </strong>
            </Table.Summary.Cell>
            {compact ? null : <Table.Summary.Cell index={3} colSpan={3} />}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

/** How many invoices are overdue and for how much, above the table (the table lists them first). */
function OverdueAlert({ invoices }: { invoices: Invoice[] }) {
  const { t, i18n } = useTranslation('filing');
  const overdue = overdueTotal(invoices, todayIso());
  if (!overdue.count) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="invoices-overdue"
      message={t('dashboard.overdueInvoices', {
        count: overdue.count,
        amount: formatMoney(overdue.amount, i18n.language),
      })}
      description={t('invoices.overdueFirst')}
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
          {(list) => (
            <>
              <OverdueAlert invoices={list} />
              <InvoicesTable invoices={list} />
            </>
          )}
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

import { CheckCircleOutlined, ClockCircleOutlined, DollarOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tabs,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFilterText } from '../../../components/use-filter-text';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate, formatMoney } from '../../../lib/i18n/format';
import {
  councilOpsKeys,
  invoiceListQuery,
  invoiceTotalsQuery,
  markInvoicePaid,
  type InvoiceRow,
  type InvoiceTotals,
} from '../api/council-api';
import {
  CsvButton,
  failureText,
  Filter,
  FilterBar,
  monthLabel,
  PageHeading,
  SeasonSelect,
  TextTag,
  useCalendar,
  useChosenSeason,
  useUrlFilters,
} from './shared';

const FILTERS = ['season', 'period', 'status', 'handler'] as const;
const money = { whiteSpace: 'nowrap' as const, fontVariantNumeric: 'tabular-nums' as const };
const today = () => new Date().toISOString().slice(0, 10);

function InvoiceStatusTag({ inv }: { inv: InvoiceRow }) {
  const { t } = useFeatureTranslation('councilOps');
  if (inv.status === 'paid')
    return <TextTag color="green" icon={<CheckCircleOutlined />} text={t('invoices.status_paid')} />;
  if (inv.due_date < today())
    return <TextTag color="red" icon={<ClockCircleOutlined />} text={t('invoices.status_overdue')} />;
  return <TextTag color="blue" icon={<ClockCircleOutlined />} text={t('invoices.status_open')} />;
}

/** The payment form, made afresh for each invoice (so nothing typed for another one stays in it). */
function PaidForm({ invoice, onClose }: { invoice: InvoiceRow; onClose: () => void }) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const { message } = App.useApp();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (v: { paid_date: string; reference?: string }) =>
      markInvoicePaid(invoice.id, { paid_date: v.paid_date, reference: v.reference?.trim() || null }),
    onSuccess: () => {
      message.success(t('invoices.paidDone', { number: invoice.invoice_number }));
      client.invalidateQueries({ queryKey: councilOpsKeys.invoices });
      onClose();
    },
  });
  return (
    <>
      <Typography.Paragraph>
        {t('invoices.markPaidText', {
          handler: `${invoice.handler_number} ${invoice.handler_name}`,
          amount: formatMoney(invoice.amount_due, i18n.language),
          month: monthLabel(invoice.period_month, i18n.language),
        })}
      </Typography.Paragraph>
      {mutation.error ? (
        <Alert type="error" showIcon role="alert" message={failureText(mutation.error)} style={{ marginBottom: 12 }} />
      ) : null}
      <Form
        layout="vertical"
        initialValues={{ paid_date: today(), reference: '' }}
        onFinish={(v) => mutation.mutate(v)}
        requiredMark={false}
      >
        <Form.Item
          name="paid_date"
          label={t('invoices.paidDate')}
          rules={[{ required: true, message: t('invoices.paidDateRequired') }]}
        >
          <Input type="date" max={today()} />
        </Form.Item>
        <Form.Item name="reference" label={t('invoices.reference')}>
          <Input placeholder={t('invoices.referencePlaceholder')} maxLength={255} />
        </Form.Item>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('invoices.markPaidConfirm')}
          </Button>
        </Space>
      </Form>
    </>
  );
}

/** Asks for the payment date and reference, says what will happen, and records it. */
function MarkPaidModal({ invoice, onClose }: { invoice: InvoiceRow | null; onClose: () => void }) {
  const { t } = useFeatureTranslation('councilOps');
  return (
    <Modal
      open={!!invoice}
      title={t('invoices.markPaidTitle', { number: invoice?.invoice_number ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {invoice ? <PaidForm key={invoice.id} invoice={invoice} onClose={onClose} /> : null}
    </Modal>
  );
}

function InvoiceTable({
  rows,
  loading,
  onMarkPaid,
}: {
  rows: InvoiceRow[];
  loading: boolean;
  onMarkPaid: (inv: InvoiceRow) => void;
}) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const lang = i18n.language;
  const columns: ColumnsType<InvoiceRow> = [
    {
      key: 'number',
      title: t('invoices.number'),
      render: (_, r) => <strong>{r.invoice_number}</strong>,
      sorter: (a, b) => a.invoice_number.localeCompare(b.invoice_number),
    },
    {
      key: 'handler',
      title: t('board.handler'),
      render: (_, r) => `${r.handler_number} ${r.handler_name}`,
      sorter: (a, b) => a.handler_number.localeCompare(b.handler_number, undefined, { numeric: true }),
    },
    {
      key: 'month',
      title: t('filters.month'),
      render: (_, r) => monthLabel(r.period_month, lang),
      sorter: (a, b) => a.period_month.localeCompare(b.period_month),
    },
    {
      key: 'amount',
      title: t('invoices.amount'),
      align: 'end',
      render: (_, r) => <span style={money}>{formatMoney(r.amount_due, lang)}</span>,
      sorter: (a, b) => Number(a.amount_due) - Number(b.amount_due),
    },
    {
      key: 'due',
      title: t('invoices.dueDate'),
      render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(r.due_date, lang)}</span>,
    },
    { key: 'status', title: t('filters.status'), render: (_, r) => <InvoiceStatusTag inv={r} /> },
    {
      key: 'paid',
      title: t('invoices.payment'),
      render: (_, r) =>
        r.status === 'paid' ? (
          <span>
            {formatDate(r.paid_date, lang)}
            {r.paid_reference ? <Typography.Text type="secondary"> · {r.paid_reference}</Typography.Text> : null}
          </span>
        ) : (
          <Button
            size="small"
            icon={<DollarOutlined />}
            onClick={() => onMarkPaid(r)}
            aria-label={t('invoices.markPaidOf', { number: r.invoice_number })}
          >
            {t('invoices.markPaid')}
          </Button>
        ),
    },
  ];
  return (
    <Table<InvoiceRow>
      rowKey="id"
      columns={columns}
      dataSource={rows}
      size="middle"
      scroll={{ x: 960 }}
      loading={loading}
      pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
    />
  );
}

function Totals({ seasonId }: { seasonId: string }) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const lang = i18n.language;
  const totals = useQuery(invoiceTotalsQuery(seasonId));
  type ByHandler = InvoiceTotals['by_handler'][number];
  const columns: ColumnsType<ByHandler> = [
    { key: 'handler', title: t('board.handler'), render: (_, r) => `${r.handler_number} ${r.handler_name}` },
    { key: 'invoices', title: t('invoices.count'), align: 'end', dataIndex: 'invoices' },
    ...(['billed', 'paid', 'open'] as const).map((k) => ({
      key: k,
      title: t(`invoices.${k}`),
      align: 'end' as const,
      render: (_: unknown, r: ByHandler) => <span style={money}>{formatMoney(r[k], lang)}</span>,
    })),
  ];
  return (
    <QueryState query={totals}>
      {(d) => (
        <>
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            {(['billed', 'paid', 'open'] as const).map((k) => (
              <Col xs={24} sm={8} key={k}>
                <Card size="small">
                  <Statistic title={t(`invoices.${k}`)} value={formatMoney(d[k], lang)} />
                </Card>
              </Col>
            ))}
          </Row>
          <Table<ByHandler>
            rowKey="handler_id"
            columns={columns}
            dataSource={d.by_handler}
            size="small"
            scroll={{ x: 640 }}
            pagination={false}
          />
        </>
      )}
    </QueryState>
  );
}

/** Invoices across handlers: filter, mark paid (date and reference, after a confirmation), export, season totals. */
export default function BillingPage() {
  const { t, i18n } = useFeatureTranslation('councilOps');
  useDocumentTitle(t('invoices.title'));
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const { seasons, season } = useChosenSeason(filters.season);
  const calendar = useCalendar(season?.id);
  const [paying, setPaying] = useState<InvoiceRow | null>(null);
  const params = { season_id: season?.id, period_id: filters.period, status: filters.status, handler: filters.handler };
  const invoices = useQuery({
    ...invoiceListQuery(params),
    enabled: !!season,
    placeholderData: keepPreviousData,
  });
  const [handlerText, setHandlerText] = useFilterText(filters.handler);
  return (
    <Card>
      <PageHeading
        title={t('invoices.title')}
        intro={t('invoices.intro')}
        actions={<CsvButton path="/invoices.csv" params={params} filename={`invoices-${season?.title ?? ''}.csv`} />}
      />
      <FilterBar>
        <SeasonSelect
          id="inv-season"
          seasons={seasons}
          value={season?.id}
          onChange={(id) => setFilters({ season: id, period: undefined })}
        />
        <Filter id="inv-period" label={t('filters.month')}>
          <Select
            id="inv-period"
            style={{ minWidth: 180 }}
            allowClear
            placeholder={t('filters.allMonths')}
            value={filters.period}
            onChange={(v) => setFilters({ period: v })}
            options={(calendar.data?.periods ?? []).map((p) => ({
              value: p.id,
              label: monthLabel(p.period_month, i18n.language),
            }))}
          />
        </Filter>
        <Filter id="inv-status" label={t('filters.status')}>
          <Select
            id="inv-status"
            style={{ minWidth: 140 }}
            allowClear
            placeholder={t('filters.all')}
            value={filters.status}
            onChange={(v) => setFilters({ status: v })}
            options={(['open', 'paid'] as const).map((s) => ({ value: s, label: t(`invoices.status_${s}`) }))}
          />
        </Filter>
        <Filter id="inv-handler" label={t('filters.handlerNumber')}>
          <Input.Search
            id="inv-handler"
            allowClear
            style={{ width: 180 }}
            value={handlerText}
            onChange={(e) => setHandlerText(e.target.value)}
            onSearch={(v) => setFilters({ handler: v.trim() || undefined })}
            enterButton={t('filters.apply')}
          />
        </Filter>
      </FilterBar>
      <Tabs
        items={[
          {
            key: 'list',
            label: t('invoices.list'),
            children: (
              <QueryState query={invoices} isEmpty={(d) => d.data.length === 0} emptyText={t('invoices.empty')}>
                {(d) => <InvoiceTable rows={d.data} loading={invoices.isPlaceholderData} onMarkPaid={setPaying} />}
              </QueryState>
            ),
          },
          {
            key: 'totals',
            label: t('invoices.totals', { season: season?.title ?? '' }),
            children: season ? <Totals seasonId={season.id} /> : null,
          },
        ]}
      />
      <MarkPaidModal invoice={paying} onClose={() => setPaying(null)} />
    </Card>
  );
}

import { LockOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Select, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFilterText } from '../../../components/use-filter-text';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { attr } from '../../../lib/portal/entities';
import { auditQuery, handlerNamesQuery, type AuditEntry } from '../api/council-api';
import { dateTime, Filter, FilterBar, PagedTable, PageHeading, useUrlFilters } from './shared';

const FILTERS = ['handler', 'user', 'type', 'action', 'from', 'to', 'id', 'page'] as const;
/** Record types people search for (the server accepts any table name or JSON:API type). */
const TYPES = [
  'apc_form_1',
  'apc_form_2',
  'apc_form_3',
  'apc_form_4',
  'apc_form_5',
  'invoices',
  'monthly_position_reports',
  'annual_position_reports',
  'industry_analytics',
  'handler_analytics',
  'reporting_periods',
  'reporting_forms_packages',
  'seasons',
  'handlers',
  'users',
  'files',
];
const ACTIONS = [
  'create',
  'update',
  'delete',
  'certify',
  'supersede',
  'set_current',
  'approve',
  'refuse',
  'password_change',
  'password_reset_sent',
];
const ACTION_COLOR: Record<string, string> = {
  create: 'green',
  update: 'blue',
  delete: 'red',
  certify: 'purple',
  supersede: 'default',
  approve: 'green',
  refuse: 'volcano',
};
const CHANGED_BG = '#fff1b8';

/** Handler id -> "101 Riverbend Pecan Co." (every handler, read once through the JSON:API). */
function useHandlerNames(): Map<string, string> {
  const query = useQuery(handlerNamesQuery());
  return new Map(
    (query.data ?? []).map((h) => [
      h.id,
      `${String(attr(h, 'field_handler_number') ?? '')} ${String(attr(h, 'title') ?? '')}`,
    ]),
  );
}

const show = (v: unknown): string =>
  v === undefined ? '' : v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The values before and after, side by side; the ones that changed highlighted. */
function BeforeAfter({ entry }: { entry: AuditEntry }) {
  const { t } = useFeatureTranslation('councilOps');
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  const rows = keys.map((k) => {
    const before = entry.before?.[k];
    const after = entry.after?.[k];
    return {
      k,
      before,
      after,
      changed: !!entry.before && !!entry.after && JSON.stringify(before) !== JSON.stringify(after),
    };
  });
  // Changed values first: they are what the entry is about.
  rows.sort((a, b) => Number(b.changed) - Number(a.changed));
  type R = (typeof rows)[number];
  const highlight = (r: R) => (r.changed ? { style: { background: CHANGED_BG } } : {});
  const columns: ColumnsType<R> = [
    { key: 'k', title: t('audit.field'), render: (_, r) => <code>{r.k}</code>, width: 240 },
    {
      key: 'before',
      title: t('audit.before'),
      onCell: highlight,
      render: (_, r) => <span style={{ wordBreak: 'break-word' }}>{entry.before ? show(r.before) : ''}</span>,
    },
    {
      key: 'after',
      title: t('audit.after'),
      onCell: highlight,
      render: (_, r) => (
        <span style={{ wordBreak: 'break-word', fontWeight: r.changed ? 600 : undefined }}>
          {entry.after ? show(r.after) : ''}
        </span>
      ),
    },
  ];
  return (
    <div>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        <span
          aria-hidden="true"
          style={{
            display: 'inline-block',
            width: 14,
            height: 14,
            background: CHANGED_BG,
            border: '1px solid #d4b106',
            verticalAlign: 'middle',
            marginInlineEnd: 6,
          }}
        />
        {t('audit.legend')} · {t('audit.recordId', { id: entry.entity_id })}
      </Typography.Paragraph>
      <Table<R> rowKey="k" columns={columns} dataSource={rows} size="small" pagination={false} scroll={{ x: 640 }} />
    </div>
  );
}

/** What the entry is about, in a few words: the record's title or number when it has one. */
const subjectOf = (e: AuditEntry): string => {
  const v = e.after ?? e.before ?? {};
  const pick = e.entity_name ?? v.title ?? v.invoice_number ?? v.name ?? v.period_month ?? v.filename;
  return typeof pick === 'string' && pick ? pick : e.entity_id.slice(0, 8);
};

/** The audit log: every write, searchable; read only (the database refuses to change or delete an entry). */
export default function AuditLogPage() {
  const { t, i18n } = useFeatureTranslation('councilOps');
  useDocumentTitle(t('audit.title'));
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const handlers = useHandlerNames();
  const [handlerText, setHandlerText] = useFilterText(filters.handler);
  const [userText, setUserText] = useFilterText(filters.user);
  const params = { ...filters };
  const log = useQuery({
    ...auditQuery(params),
    placeholderData: keepPreviousData,
  });
  const columns: ColumnsType<AuditEntry> = [
    {
      key: 'when',
      title: t('audit.when'),
      render: (_, e) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(e.occurred_at, i18n.language)}</span>,
      width: 170,
    },
    {
      key: 'who',
      title: t('audit.who'),
      render: (_, e) =>
        e.actor ? (
          <span style={{ whiteSpace: 'nowrap' }}>
            {e.actor.name}{' '}
            <Typography.Text type="secondary">
              ({t(`audit.role_${e.actor.role}`, { defaultValue: e.actor.role ?? '' })})
            </Typography.Text>
          </span>
        ) : (
          <Typography.Text type="secondary">{t('audit.selfService')}</Typography.Text>
        ),
    },
    {
      key: 'action',
      title: t('audit.action'),
      render: (_, e) => (
        <Tag color={ACTION_COLOR[e.action] ?? 'default'}>
          {t(`audit.action_${e.action}`, { defaultValue: e.action })}
        </Tag>
      ),
    },
    { key: 'type', title: t('audit.type'), render: (_, e) => t(`audit.type_${e.type}`, { defaultValue: e.type }) },
    { key: 'what', title: t('audit.what'), render: (_, e) => subjectOf(e) },
    {
      key: 'handler',
      title: t('board.handler'),
      render: (_, e) => (e.handler_id ? (handlers.get(e.handler_id) ?? e.handler_id.slice(0, 8)) : '—'),
    },
  ];
  const applyText = () => setFilters({ handler: handlerText.trim() || undefined, user: userText.trim() || undefined });
  return (
    <Card>
      <PageHeading title={t('audit.title')} intro={t('audit.intro')} />
      <Alert
        type="info"
        role="note"
        showIcon
        icon={<LockOutlined />}
        message={t('audit.readOnly')}
        style={{ marginBottom: 16 }}
      />
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          applyText();
        }}
      >
        <FilterBar>
          <Filter id="audit-handler" label={t('filters.handlerNumber')}>
            <Input
              id="audit-handler"
              allowClear
              style={{ width: 150 }}
              value={handlerText}
              onChange={(e) => setHandlerText(e.target.value)}
            />
          </Filter>
          <Filter id="audit-user" label={t('audit.user')}>
            <Input
              id="audit-user"
              allowClear
              style={{ width: 150 }}
              value={userText}
              onChange={(e) => setUserText(e.target.value)}
            />
          </Filter>
          <Filter id="audit-type" label={t('audit.type')}>
            <Select
              id="audit-type"
              style={{ minWidth: 200 }}
              allowClear
              showSearch
              optionFilterProp="label"
              placeholder={t('filters.all')}
              value={filters.type}
              onChange={(v) => setFilters({ type: v })}
              options={TYPES.map((ty) => ({ value: ty, label: t(`audit.type_${ty}`, { defaultValue: ty }) }))}
            />
          </Filter>
          <Filter id="audit-action" label={t('audit.action')}>
            <Select
              id="audit-action"
              style={{ minWidth: 150 }}
              allowClear
              placeholder={t('filters.all')}
              value={filters.action}
              onChange={(v) => setFilters({ action: v })}
              options={ACTIONS.map((a) => ({ value: a, label: t(`audit.action_${a}`, { defaultValue: a }) }))}
            />
          </Filter>
          <Filter id="audit-from" label={t('audit.from')}>
            <Input
              id="audit-from"
              type="date"
              style={{ width: 160 }}
              value={filters.from ?? ''}
              onChange={(e) => setFilters({ from: e.target.value || undefined })}
            />
          </Filter>
          <Filter id="audit-to" label={t('audit.to')}>
            <Input
              id="audit-to"
              type="date"
              style={{ width: 160 }}
              value={filters.to ?? ''}
              onChange={(e) => setFilters({ to: e.target.value || undefined })}
            />
          </Filter>
          <Button type="primary" htmlType="submit">
            {t('filters.apply')}
          </Button>
          <Button
            onClick={() => {
              setHandlerText('');
              setUserText('');
              setFilters(Object.fromEntries(FILTERS.map((k) => [k, undefined])));
            }}
          >
            {t('filters.clear')}
          </Button>
        </FilterBar>
      </form>
      <PagedTable<AuditEntry>
        query={log}
        emptyText={t('audit.empty')}
        columns={columns}
        scroll={{ x: 900 }}
        expandable={{ expandedRowRender: (e) => <BeforeAfter entry={e} />, expandRowByClick: true }}
        onPage={(page) => setFilters({ page })}
      />
    </Card>
  );
}

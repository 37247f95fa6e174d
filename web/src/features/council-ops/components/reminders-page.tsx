import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  HourglassOutlined,
  MinusCircleOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Input, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFilterText } from '../../../components/use-filter-text';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { REMINDER_KINDS, REMINDER_STATUSES, remindersQuery, type ReminderRow } from '../api/council-api';
import {
  dateTime,
  Filter,
  FilterBar,
  monthLabel,
  PagedTable,
  PageHeading,
  SeasonSelect,
  TextTag,
  useCalendar,
  useChosenSeason,
  useUrlFilters,
} from './shared';

const FILTERS = ['season', 'period', 'kind', 'status', 'handler', 'page'] as const;
const STATUS_LOOK = {
  sent: { color: 'green', icon: <CheckCircleOutlined /> },
  claimed: { color: 'gold', icon: <HourglassOutlined /> },
  retrying: { color: 'orange', icon: <RedoOutlined /> },
  failed: { color: 'red', icon: <CloseCircleOutlined /> },
  cancelled: { color: 'default', icon: <MinusCircleOutlined /> },
} as const;

/** The log of reminder e-mails the server's job sent (or tried to): who, which month, when, and how it went. */
export default function RemindersPage() {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const lang = i18n.language;
  useDocumentTitle(t('reminders.title'));
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const { seasons, season } = useChosenSeason(filters.season);
  const calendar = useCalendar(season?.id);
  const [handlerText, setHandlerText] = useFilterText(filters.handler);
  const params = {
    period_id: filters.period,
    kind: filters.kind,
    status: filters.status,
    handler: filters.handler,
    page: filters.page,
  };
  const log = useQuery({
    ...remindersQuery(params),
    placeholderData: keepPreviousData,
  });
  const columns: ColumnsType<ReminderRow> = [
    {
      key: 'when',
      title: t('reminders.when'),
      render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{dateTime(r.sent_at ?? r.claimed_at, lang)}</span>,
    },
    {
      key: 'kind',
      title: t('reminders.kind'),
      render: (_, r) => (
        <TextTag color={r.kind.endsWith('overdue') ? 'volcano' : 'blue'} text={t(`reminders.kind_${r.kind}`)} />
      ),
    },
    {
      key: 'status',
      title: t('filters.status'),
      render: (_, r) => (
        <TextTag
          color={STATUS_LOOK[r.status].color}
          icon={STATUS_LOOK[r.status].icon}
          text={t(`reminders.status_${r.status}`)}
        />
      ),
    },
    { key: 'handler', title: t('board.handler'), render: (_, r) => `${r.handler_number} ${r.handler_name}` },
    {
      key: 'to',
      title: t('reminders.to'),
      render: (_, r) => (
        <span>
          {r.username}
          <br />
          <Typography.Text type="secondary">{r.to}</Typography.Text>
        </span>
      ),
    },
    { key: 'month', title: t('filters.month'), render: (_, r) => monthLabel(r.period_month, lang) },
    {
      key: 'due',
      title: t('invoices.dueDate'),
      render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(r.due_date, lang)}</span>,
    },
    { key: 'subject', title: t('reminders.subject'), dataIndex: 'subject' },
  ];
  return (
    <Card>
      <PageHeading title={t('reminders.title')} intro={t('reminders.intro')} />
      <FilterBar>
        <SeasonSelect
          id="rem-season"
          seasons={seasons}
          value={season?.id}
          onChange={(id) => setFilters({ season: id, period: undefined })}
        />
        <Filter id="rem-period" label={t('filters.month')}>
          <Select
            id="rem-period"
            style={{ minWidth: 180 }}
            allowClear
            placeholder={t('filters.allMonths')}
            value={filters.period}
            onChange={(v) => setFilters({ period: v })}
            options={(calendar.data?.periods ?? []).map((p) => ({
              value: p.id,
              label: monthLabel(p.period_month, lang),
            }))}
          />
        </Filter>
        <Filter id="rem-kind" label={t('reminders.kind')}>
          <Select
            id="rem-kind"
            style={{ minWidth: 150 }}
            allowClear
            placeholder={t('filters.all')}
            value={filters.kind}
            onChange={(v) => setFilters({ kind: v })}
            options={REMINDER_KINDS.map((k) => ({ value: k, label: t(`reminders.kind_${k}`) }))}
          />
        </Filter>
        <Filter id="rem-status" label={t('filters.status')}>
          <Select
            id="rem-status"
            style={{ minWidth: 140 }}
            allowClear
            placeholder={t('filters.all')}
            value={filters.status}
            onChange={(v) => setFilters({ status: v })}
            options={REMINDER_STATUSES.map((s) => ({ value: s, label: t(`reminders.status_${s}`) }))}
          />
        </Filter>
        <Filter id="rem-handler" label={t('filters.handlerNumber')}>
          <Input.Search
            id="rem-handler"
            allowClear
            style={{ width: 180 }}
            value={handlerText}
            onChange={(e) => setHandlerText(e.target.value)}
            onSearch={(v) => setFilters({ handler: v.trim() || undefined })}
            enterButton={t('filters.apply')}
          />
        </Filter>
      </FilterBar>
      <PagedTable<ReminderRow>
        query={log}
        emptyText={t('reminders.empty')}
        columns={columns}
        scroll={{ x: 1100 }}
        onPage={(page) => setFilters({ page })}
      />
    </Card>
  );
}

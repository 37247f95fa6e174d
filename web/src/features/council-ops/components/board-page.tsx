import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import {
  BOARD_STATUSES,
  boardQuery,
  type Board,
  type BoardRow,
  type BoardStatus,
  type CalendarPeriod,
  type FormBundle,
} from '../api/council-api';
import { StaleFigures } from '../../../components/stale-figures';
import { RemindNowButton } from './remind-now-button';
import {
  BoardStatusTag,
  CsvButton,
  dateTime,
  Filter,
  FilterBar,
  monthLabel,
  PageHeading,
  SeasonSelect,
  useCalendar,
  useChosenSeason,
  useUrlFilters,
} from './shared';

/** The year-end scope: form 5 of the season instead of a month's forms 1-3. */
const YEAR_END = 'year_end';
const FILTERS = ['season', 'period', 'status', 'q'] as const;

/** One line per handler, one cell per form. */
interface HandlerLine {
  handler_id: string;
  handler_number: string;
  handler_name: string;
  cells: Partial<Record<FormBundle, BoardRow>>;
}

function linesOf(rows: BoardRow[]): HandlerLine[] {
  const lines = new Map<string, HandlerLine>();
  for (const r of rows) {
    let line = lines.get(r.handler_id);
    if (!line)
      lines.set(
        r.handler_id,
        (line = {
          handler_id: r.handler_id,
          handler_number: r.handler_number,
          handler_name: r.handler_name,
          cells: {},
        }),
      );
    line.cells[r.form] = r;
  }
  return [...lines.values()];
}

/** The month to show first: this calendar month when it is open, else the latest month before it, else the first. */
function defaultPeriod(periods: CalendarPeriod[]): CalendarPeriod | undefined {
  const month = new Date().toISOString().slice(0, 7);
  return (
    periods.find((p) => p.period_month === month) ??
    [...periods].reverse().find((p) => p.period_month < month) ??
    periods[0]
  );
}

function FilingCell({ row, handler }: { row: BoardRow | undefined; handler: HandlerLine }) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const { search } = useLocation();
  if (!row) return <Typography.Text type="secondary">—</Typography.Text>;
  const label = t('board.cellLabel', {
    form: t(`forms.${row.form}`),
    handler: `${handler.handler_number} ${handler.handler_name}`,
    status: t(`status.${row.status}`),
  });
  const details = [
    row.certified_at ? t('board.certifiedOn', { date: formatDate(row.certified_at, i18n.language) }) : null,
    row.amendment_in_progress ? t('board.amendmentInProgress') : null,
    row.amendments > 0 ? t('board.amendments', { count: row.amendments }) : null,
  ].filter(Boolean);
  const tag = <BoardStatusTag status={row.status} />;
  return (
    <Space
      direction="vertical"
      size={2}
      data-testid={`cell-${handler.handler_number}-${row.form}`}
      data-status={row.status}
    >
      {row.current_version_id ? (
        <Link
          to={`/dashboard/council/board/filing/${row.form}/${row.current_version_id}`}
          state={{ boardSearch: search }}
          aria-label={label}
          title={t('board.openFiling')}
        >
          {tag}
        </Link>
      ) : (
        <span aria-label={label}>{tag}</span>
      )}
      {details.length ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {details.join(' · ')}
        </Typography.Text>
      ) : null}
      {row.amendment_reason ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, fontStyle: 'italic' }} data-testid="amendment-reason">
          {t('versions.reason', { reason: row.amendment_reason })}
        </Typography.Text>
      ) : null}
      {row.stale_year_to_date?.length ? <StaleFigures figures={row.stale_year_to_date} compact titled /> : null}
    </Space>
  );
}

function BoardTable({ board, q, loading }: { board: Board; q: string; loading: boolean }) {
  const { t, i18n } = useFeatureTranslation(['councilOps', 'staffHome']);
  const needle = q.trim().toLowerCase();
  const lines = useMemo(
    () =>
      linesOf(board.data).filter(
        (l) =>
          !needle || l.handler_number.toLowerCase().includes(needle) || l.handler_name.toLowerCase().includes(needle),
      ),
    [board.data, needle],
  );
  const columns: ColumnsType<HandlerLine> = [
    {
      key: 'handler',
      title: t('board.handler'),
      fixed: 'left',
      width: 220,
      render: (_, l) => (
        <Space direction="vertical" size={6}>
          <span>
            <strong>{l.handler_number}</strong> <bdi>{l.handler_name}</bdi>
          </span>
          {board.scope.kind === 'period' &&
          Object.values(l.cells).some((c) => c && c.status !== 'certified' && c.status !== 'amended') ? (
            <RemindNowButton
              periodId={board.scope.id}
              handlerNumber={l.handler_number}
              handlerName={l.handler_name}
              monthLabel={monthLabel(board.scope.period_month, i18n.language)}
            />
          ) : null}
        </Space>
      ),
      sorter: (a, b) => a.handler_number.localeCompare(b.handler_number, undefined, { numeric: true }),
      defaultSortOrder: 'ascend',
    },
    ...board.forms.map((form) => ({
      key: form,
      title: (
        <span>
          {t(`forms.${form}`)}
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {t(`formTitles.${form}`)}
          </Typography.Text>
        </span>
      ),
      render: (_: unknown, l: HandlerLine) => <FilingCell row={l.cells[form]} handler={l} />,
    })),
  ];
  return (
    <Table<HandlerLine>
      rowKey="handler_id"
      columns={columns}
      dataSource={lines}
      size="middle"
      loading={loading}
      scroll={{ x: 220 + board.forms.length * 190 }}
      pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
      locale={{ emptyText: t('board.noRows') }}
    />
  );
}

/** Counts of each status over the whole board; a click filters by it (again: shows all). */
function Counts({
  board,
  status,
  onStatus,
}: {
  board: Board;
  status: string | undefined;
  onStatus: (s: string | undefined) => void;
}) {
  const { t } = useFeatureTranslation('councilOps');
  return (
    <div
      role="group"
      aria-label={t('board.counts')}
      style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 16 }}
    >
      {BOARD_STATUSES.map((s) => (
        <Button
          key={s}
          size="small"
          type={status === s ? 'primary' : 'default'}
          ghost={status === s}
          aria-pressed={status === s}
          onClick={() => onStatus(status === s ? undefined : s)}
        >
          <BoardStatusTag status={s} />
          <strong data-testid={`count-${s}`}>{board.counts[s] ?? 0}</strong>
        </Button>
      ))}
    </div>
  );
}

export default function BoardPage() {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const { t: tc } = useFeatureTranslation('portalData');
  useDocumentTitle(t('board.title'));
  const lang = i18n.language;
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const { seasons, season } = useChosenSeason(filters.season);
  const calendar = useCalendar(season?.id);
  const periods = calendar.data?.periods ?? [];
  const period =
    filters.period === YEAR_END ? undefined : (periods.find((p) => p.id === filters.period) ?? defaultPeriod(periods));
  const yearEnd = filters.period === YEAR_END;
  const scopeParams = yearEnd ? { season_id: season?.id } : { period_id: period?.id };
  const params = { ...scopeParams, status: filters.status };
  const board = useQuery({
    ...boardQuery(params),
    enabled: !!(yearEnd ? season : period),
    placeholderData: keepPreviousData,
    // Filings move while staff watch: the board refreshes itself.
    refetchInterval: 15_000,
  });
  const scopeName = yearEnd ? `${season?.title ?? ''}` : (period?.period_month ?? '');
  return (
    <Card>
      <PageHeading
        title={t('board.title')}
        intro={t('board.intro')}
        actions={
          <Space wrap>
            <Button icon={<ReloadOutlined />} onClick={() => board.refetch()} loading={board.isFetching}>
              {t('refresh')}
            </Button>
            <CsvButton
              path="/board.csv"
              params={params}
              filename={`submissions-${yearEnd ? 'year-end-' : ''}${scopeName}.csv`}
            />
          </Space>
        }
      />
      <FilterBar>
        <SeasonSelect
          id="board-season"
          seasons={seasons}
          value={season?.id}
          onChange={(id) => setFilters({ season: id, period: undefined })}
        />
        <Filter id="board-period" label={t('filters.month')}>
          <Select
            id="board-period"
            style={{ minWidth: 190 }}
            virtual={false}
            value={yearEnd ? YEAR_END : period?.id}
            loading={calendar.isPending}
            onChange={(v) => setFilters({ period: v })}
            options={[
              ...periods.map((p) => ({ value: p.id, label: monthLabel(p.period_month, lang) })),
              { value: YEAR_END, label: t('board.yearEnd') },
            ]}
          />
        </Filter>
        <Filter id="board-status" label={t('filters.status')}>
          <Select
            id="board-status"
            style={{ minWidth: 160 }}
            allowClear
            placeholder={t('filters.all')}
            value={filters.status}
            onChange={(v) => setFilters({ status: v })}
            options={BOARD_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
        </Filter>
        <Filter id="board-q" label={t('filters.handler')}>
          <Input
            id="board-q"
            allowClear
            placeholder={t('filters.handlerPlaceholder')}
            value={filters.q ?? ''}
            onChange={(e) => setFilters({ q: e.target.value || undefined })}
            style={{ width: 220 }}
          />
        </Filter>
      </FilterBar>
      <QueryState query={board} emptyText={tc('empty')}>
        {(b) => (
          <>
            <Typography.Paragraph data-testid="board-scope">
              {b.scope.kind === 'season'
                ? t('board.scopeSeason', { season: b.scope.title })
                : t('board.scopeMonth', { month: monthLabel(b.scope.period_month, lang) })}
              {' · '}
              {t('board.dueOn', { date: formatDate(b.due_date, lang) })}
              {board.dataUpdatedAt ? (
                <Typography.Text type="secondary">
                  {' · '}
                  {t('board.updatedAt', { time: dateTime(new Date(board.dataUpdatedAt).toISOString(), lang) })}
                </Typography.Text>
              ) : null}
            </Typography.Paragraph>
            <Counts
              board={b}
              status={filters.status}
              onStatus={(s) => setFilters({ status: s as BoardStatus | undefined })}
            />
            {filters.status ? (
              <Tag closable onClose={() => setFilters({ status: undefined })} style={{ marginBottom: 12 }}>
                {t('board.filteredBy', { status: t(`status.${filters.status}`) })}
              </Tag>
            ) : null}
            <BoardTable board={b} q={filters.q ?? ''} loading={board.isPlaceholderData} />
          </>
        )}
      </QueryState>
    </Card>
  );
}

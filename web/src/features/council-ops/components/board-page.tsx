import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useDebouncedCallback } from 'use-debounce';
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
import { boardPageParams, boardScopeParams } from '../api/board-params';
import { StaleFigures } from '../../../components/stale-figures';
import { useFilterText } from '../../../components/use-filter-text';
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
const FILTERS = ['season', 'period', 'status', 'q', 'sort', 'page'] as const;
/** How long typing pauses before the search goes to the server. */
const SEARCH_DELAY_MS = 300;

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

/** The page of handler lines the server gave (searched, sorted and paged there). */
function BoardTable({
  board,
  descending,
  loading,
  onPage,
  onSort,
}: {
  board: Board;
  descending: boolean;
  loading: boolean;
  onPage: (page: number) => void;
  onSort: (descending: boolean) => void;
}) {
  const { t, i18n } = useFeatureTranslation(['councilOps', 'staffHome']);
  const lines = useMemo(() => linesOf(board.data), [board.data]);
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
      // The server sorts (every page, not only this one): the column shows its order and asks for the other.
      sorter: true,
      sortOrder: descending ? 'descend' : 'ascend',
      sortDirections: ['ascend', 'descend', 'ascend'],
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
      pagination={{
        current: board.meta.page,
        pageSize: board.meta.per_page ?? board.meta.total_handlers,
        total: board.meta.total_handlers,
        hideOnSinglePage: true,
        showSizeChanger: false,
        showTotal: (total) => t('board.handlers', { count: total }),
      }}
      onChange={(pagination, _filters, sorter, { action }) => {
        if (action === 'sort') onSort(!Array.isArray(sorter) && sorter.order === 'descend');
        else if (action === 'paginate') onPage(pagination.current ?? 1);
      }}
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
  const descending = filters.sort === '-handler_number';
  const choice = {
    ...(yearEnd ? { seasonId: season?.id } : { periodId: period?.id }),
    status: filters.status as BoardStatus | undefined,
    q: filters.q,
    sort: descending ? ('-handler_number' as const) : undefined,
    page: Number(filters.page ?? 1),
  };
  const board = useQuery({
    ...boardQuery(boardPageParams(choice)),
    enabled: !!(yearEnd ? season : period),
    placeholderData: keepPreviousData,
    // Filings move while staff watch: the page in view refreshes itself (only its query is active).
    refetchInterval: 15_000,
  });
  // What is typed shows at once; the search goes to the server (and into the address) once typing pauses.
  const search = useDebouncedCallback((q: string) => setFilters({ q: q.trim() || undefined }), SEARCH_DELAY_MS);
  const [qText, setQText] = useFilterText(filters.q, search.isPending);
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
              params={boardScopeParams(choice)}
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
            value={qText}
            onChange={(e) => {
              setQText(e.target.value);
              search(e.target.value);
            }}
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
            <BoardTable
              board={b}
              descending={descending}
              loading={board.isPlaceholderData}
              onPage={(page) => setFilters({ page: page > 1 ? String(page) : undefined })}
              onSort={(down) => setFilters({ sort: down ? '-handler_number' : undefined })}
            />
          </>
        )}
      </QueryState>
    </Card>
  );
}

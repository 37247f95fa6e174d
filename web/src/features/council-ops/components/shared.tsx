import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  DownloadOutlined,
  EditOutlined,
  ExclamationCircleOutlined,
  MinusCircleOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Select, Table, Tag, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { QueryState, type QueryLike } from '../../../components/query-state';
import { formatDate } from '../../../lib/i18n/format';
import { failureText } from '../../../components/council-page-parts';
import {
  calendarQuery,
  councilSeasonsQuery,
  downloadCsv,
  type BoardStatus,
  type Paged,
  type Params,
  type Season,
} from '../api/council-api';

export { failureText, PageHeading } from '../../../components/council-page-parts';

/**
 * Pieces the operations pages share: heading, filters kept in the address, season and month pickers, CSV export, status
 * tags.
 */

/** A row of filters that wraps on a phone. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-end', marginBottom: 16 }}>
      {children}
    </div>
  );
}

/** A labelled filter (a visible label tied to its control, so screen readers and tests find it by name). */
export function Filter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 150 }}>
      <label htmlFor={id} style={{ fontSize: 13 }}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** Filters live in the address (?season=&period=&status=...), so a filtered view can be bookmarked or shared. */
export function useUrlFilters<K extends string>(
  keys: readonly K[],
): [Partial<Record<K, string>>, (next: Partial<Record<K, string | undefined>>) => void] {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v)) as Partial<
    Record<K, string>
  >;
  const set = (next: Partial<Record<K, string | undefined>>) => {
    const merged: Record<string, string | undefined> = { ...values, ...next };
    // Any change other than the page itself starts again at page 1.
    if (!('page' in next)) delete merged.page;
    const out = new URLSearchParams();
    for (const [k, v] of Object.entries(merged)) if (v) out.set(k, v);
    setParams(out, { replace: true });
  };
  return [values, set];
}

export const monthLabel = (periodMonth: string | null | undefined, lang: string): string =>
  periodMonth ? formatDate(`${periodMonth}-01`, lang, { month: 'long', year: 'numeric' }) : '';

export const dateTime = (iso: string | null | undefined, lang: string): string =>
  iso ? formatDate(iso, lang, { dateStyle: 'medium', timeStyle: 'short' }) : '';

export function useCouncilSeasons() {
  return useQuery(councilSeasonsQuery());
}

export function useCalendar(seasonId: string | undefined) {
  return useQuery(calendarQuery(seasonId));
}

/** The season chosen in the address, else the current one. */
export function useChosenSeason(seasonParam: string | undefined): {
  seasons: Season[];
  season: Season | undefined;
  loading: boolean;
} {
  const seasons = useCouncilSeasons();
  const list = seasons.data ?? [];
  const season = list.find((s) => s.id === seasonParam) ?? list.find((s) => s.current) ?? list[0];
  return { seasons: list, season, loading: seasons.isPending };
}

export function SeasonSelect({
  id,
  seasons,
  value,
  onChange,
}: {
  id: string;
  seasons: Season[];
  value: string | undefined;
  onChange: (id: string) => void;
}) {
  const { t } = useFeatureTranslation('councilOps');
  return (
    <Filter id={id} label={t('filters.season')}>
      <Select
        id={id}
        style={{ minWidth: 150 }}
        value={value}
        onChange={onChange}
        options={seasons.map((s) => ({
          value: s.id,
          label: s.current ? `${s.title} (${t('filters.current')})` : s.title,
        }))}
      />
    </Filter>
  );
}

/** Downloads a CSV export with the bearer token (a fetch and a saved blob, not a bare link). */
export function CsvButton({ path, params, filename }: { path: string; params: Params; filename: string }) {
  const { t } = useFeatureTranslation('councilOps');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadCsv(path, params, filename);
    } catch (error) {
      message.error(t('csvFailed', { error: failureText(error) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={run}>
      {t('exportCsv')}
    </Button>
  );
}

const BOARD_STATUS_LOOK: Record<BoardStatus, { color: string; icon: ReactNode }> = {
  not_started: { color: 'default', icon: <MinusCircleOutlined /> },
  draft: { color: 'gold', icon: <EditOutlined /> },
  certified: { color: 'green', icon: <CheckCircleOutlined /> },
  amended: { color: 'cyan', icon: <SyncOutlined /> },
  overdue: { color: 'red', icon: <ExclamationCircleOutlined /> },
};

/** A filing's status: colour, icon AND text (colour alone says nothing to some readers). */
export function BoardStatusTag({ status }: { status: BoardStatus }) {
  const { t } = useFeatureTranslation('councilOps');
  const look = BOARD_STATUS_LOOK[status];
  return (
    <Tag color={look.color} icon={look.icon} style={{ marginInlineEnd: 0 }}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** Any other status word with a colour, an icon and its text. */
export function TextTag({ color, text, icon }: { color: string; text: string; icon?: ReactNode }) {
  return (
    <Tag
      color={color}
      icon={icon ?? (color === 'default' ? <ClockCircleOutlined /> : undefined)}
      style={{ marginInlineEnd: 0 }}
    >
      {text}
    </Tag>
  );
}

/**
 * A server-paged list (the audit log, the reminders): loading, failure and empty states, then the table with the
 * page in the address. While another page or filter loads, the rows shown are the previous answer's: say so.
 */
export function PagedTable<T extends object>({
  query,
  emptyText,
  onPage,
  ...table
}: {
  query: QueryLike<Paged<T>> & { isPlaceholderData: boolean };
  emptyText: string;
  onPage: (page: string | undefined) => void;
  columns: ColumnsType<T>;
  scroll: TableProps<T>['scroll'];
  expandable?: TableProps<T>['expandable'];
}) {
  const { t } = useFeatureTranslation('councilOps');
  return (
    <QueryState query={query} isEmpty={(d) => d.data.length === 0} emptyText={emptyText}>
      {(d) => (
        <Table<T>
          rowKey="id"
          dataSource={d.data}
          size="middle"
          loading={query.isPlaceholderData}
          pagination={{
            current: d.meta.page,
            pageSize: d.meta.per_page,
            total: d.meta.total,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (total) => t('total', { count: total }),
            onChange: (page) => onPage(page > 1 ? String(page) : undefined),
          }}
          {...table}
        />
      )}
    </QueryState>
  );
}

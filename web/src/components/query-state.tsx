import { CloudDownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Skeleton, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../lib/i18n/format';
import i18n from 'i18next';
import { ApiError, isUnreachable } from '../lib/http/errors';

/**
 * The loading, failure, empty and data states of every data page. Its texts live in the common namespace, so any
 * page can use it without waiting for a feature's texts.
 */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isFetching?: boolean;
  refetch: () => unknown;
  savedAt?: number | null;
}

/** The message of a failure, or the fallback when it has none. */
export function errorText(error: unknown, fallback = ''): string {
  // The browser's own words ("Failed to fetch") mean nothing to a person: say what happened and that nothing is lost.
  // A 503 the portal answered with its own words (busy, being restored) says more than "cannot be reached".
  const portalSaid = error instanceof ApiError && error.errors.some((e) => e.detail);
  if (!portalSaid && isUnreachable(error)) return i18n.t('dataState.unreachable', { ns: 'common' });
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

/** "Saved data from <time>" while the list shown is the cached copy. */
export function SavedDataTag({ savedAt, fetching }: { savedAt: number | null | undefined; fetching: boolean }) {
  const { t, i18n } = useTranslation();
  if (!savedAt) return null;
  return (
    <Tag
      icon={<CloudDownloadOutlined />}
      color="gold"
      role="status"
      style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}
    >
      {t('dataState.savedData', {
        time: formatDate(new Date(savedAt), i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
      })}
      {fetching ? ` · ${t('dataState.refreshing')}` : ''}
    </Tag>
  );
}

/** An error with its text and, when it can be tried again, a Retry button. */
export function ErrorWithRetry({ error, onRetry, title }: { error: unknown; onRetry?: () => unknown; title?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      message={title ?? t('dataState.loadFailed')}
      description={errorText(error, t('dataState.unknownError'))}
      action={
        onRetry ? (
          <Button icon={<ReloadOutlined />} onClick={() => onRetry()}>
            {t('dataState.retry')}
          </Button>
        ) : undefined
      }
      style={{ marginBottom: 16 }}
    />
  );
}

/**
 * Loading (skeleton), failure (text and Retry), empty, and the data. A failed refresh over shown data keeps the data
 * and says so; a cached copy is marked with its time.
 */
export function QueryState<T>({
  query,
  isEmpty,
  emptyText,
  rows = 5,
  children,
}: {
  query: QueryLike<T>;
  isEmpty?: (data: T) => boolean;
  emptyText?: ReactNode;
  /** Skeleton lines while loading: about the height of what comes. */
  rows?: number;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.data === undefined) {
    if (query.error) return <ErrorWithRetry error={query.error} onRetry={query.refetch} />;
    return (
      <div role="status" aria-label={t('dataState.loading')}>
        <Skeleton active paragraph={{ rows }} />
      </div>
    );
  }
  const data = query.data;
  return (
    <>
      {query.error ? (
        <ErrorWithRetry error={query.error} onRetry={query.refetch} title={t('dataState.refreshFailed')} />
      ) : null}
      {query.savedAt ? (
        <Space style={{ marginBottom: 12 }}>
          <SavedDataTag savedAt={query.savedAt} fetching={Boolean(query.isFetching)} />
        </Space>
      ) : null}
      {isEmpty?.(data) ? <Empty description={emptyText ?? t('dataState.empty')} /> : children(data)}
    </>
  );
}

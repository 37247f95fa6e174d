import { CloudDownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Skeleton, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { formatDate } from '../lib/i18n/format';
import { useFeatureTranslation } from '../lib/i18n/feature-namespaces';

export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
  savedAt?: number | null;
}

export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error ?? '');
}

/** "Saved data from <time>" while the list shown is the cached copy. */
export function SavedDataTag({ savedAt, fetching }: { savedAt: number | null | undefined; fetching: boolean }) {
  const { t, i18n } = useFeatureTranslation('portalData');
  if (!savedAt) return null;
  return (
    <Tag icon={<CloudDownloadOutlined />} color="gold" role="status" style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}>
      {t('savedData', { time: formatDate(new Date(savedAt), i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) })}
      {fetching ? ` · ${t('refreshing')}` : ''}
    </Tag>
  );
}

/** An error with its text and a Retry button. */
export function ErrorWithRetry({ error, onRetry, title }: { error: unknown; onRetry: () => unknown; title?: string }) {
  const { t } = useFeatureTranslation('portalData');
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      message={title ?? t('loadFailed')}
      description={errorText(error)}
      action={
        <Button icon={<ReloadOutlined />} onClick={() => onRetry()}>
          {t('retry')}
        </Button>
      }
      style={{ marginBottom: 16 }}
    />
  );
}

/**
 * The four states of a data area: loading (skeleton), failure (text and Retry), empty, and the data. A failed
 * refresh over shown data keeps the data and says so; a cached copy is marked with its time.
 */
export function QueryState<T>({
  query,
  isEmpty,
  emptyText,
  children,
}: {
  query: QueryLike<T>;
  isEmpty?: (data: T) => boolean;
  emptyText?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { t } = useFeatureTranslation('portalData');
  if (query.data === undefined) {
    if (query.error) return <ErrorWithRetry error={query.error} onRetry={query.refetch} />;
    return (
      <div role="status" aria-label={t('loading')}>
        <Skeleton active paragraph={{ rows: 5 }} />
      </div>
    );
  }
  const data = query.data;
  return (
    <>
      {query.error ? <ErrorWithRetry error={query.error} onRetry={query.refetch} title={t('refreshFailed')} /> : null}
      {query.savedAt ? (
        <Space style={{ marginBottom: 12 }}>
          <SavedDataTag savedAt={query.savedAt} fetching={query.isFetching} />
        </Space>
      ) : null}
      {isEmpty?.(data) ? <Empty description={emptyText ?? t('empty')} /> : children(data)}
    </>
  );
}

import { Alert, Button, Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Loading, failure and empty states of the filing pages (dashboard, invoices, forms 1-3). */
export interface FilingQuery<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

export function filingErrorText(error: unknown, fallback = 'Unknown error'): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback;
}

/** An error with its text and a Retry button. */
export function FilingError({ error, onRetry, title }: { error: unknown; onRetry?: () => unknown; title?: string }) {
  const { t } = useTranslation('filing');
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      message={title ?? t('common.loadError')}
      description={filingErrorText(error, t('common.unknownError'))}
      action={
        onRetry ? (
          <Button size="small" danger onClick={() => onRetry()}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    />
  );
}

export function FilingState<T>({
  query,
  children,
  isEmpty,
  emptyText,
  rows = 4,
}: {
  query: FilingQuery<T>;
  children: (data: T) => ReactNode;
  isEmpty?: (data: T) => boolean;
  emptyText?: ReactNode;
  rows?: number;
}) {
  const { t } = useTranslation('filing');
  if (query.isPending && query.data === undefined) {
    return (
      <div role="status" aria-label={t('common.loading')}>
        <Skeleton active paragraph={{ rows }} />
      </div>
    );
  }
  if (query.error && query.data === undefined) return <FilingError error={query.error} onRetry={query.refetch} />;
  if (query.data === undefined) return null;
  if (isEmpty?.(query.data)) return <Empty description={emptyText ?? t('common.empty')} />;
  return <>{children(query.data)}</>;
}

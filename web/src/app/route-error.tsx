import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StatusPage } from '../components/status-page';

/** A dynamic import that failed (new deployment, network): the chunk is gone, a reload fixes it. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

/** Error boundary of the routes: 'Loading failed! Please reload.' for a lazy part that failed, else the 500 page. */
export function RouteError({ standalone = true }: { standalone?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StatusPage
        standalone={standalone}
        code="404"
        title={t('errors.notFoundTitle')}
        text={t('errors.notFoundText')}
        action={{ label: t('errors.backHome'), onClick: () => window.location.assign('/') }}
      />
    );
  }
  if (isChunkLoadError(error)) {
    return (
      <StatusPage
        standalone={standalone}
        title={t('errors.loadingFailed')}
        action={{ label: t('errors.reload'), onClick: () => window.location.reload() }}
      />
    );
  }
  if (import.meta.env.DEV) console.error(error);
  return <ServerErrorPage standalone={standalone} />;
}

export function ServerErrorPage({ standalone = true }: { standalone?: boolean }) {
  const { t } = useTranslation();
  return (
    <StatusPage
      standalone={standalone}
      code="500"
      title={t('errors.serverTitle')}
      text={t('errors.serverText')}
      action={{ label: t('errors.backHome'), onClick: () => window.location.assign('/') }}
    />
  );
}

export function DashboardRouteError() {
  return <RouteError standalone={false} />;
}

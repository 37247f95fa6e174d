import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusPage } from '../components/status-page';
import { useSession } from '../lib/session/use-session';

/**
 * The council console's pages: a handler user who types one of their addresses gets a plain 403 page (the server
 * answers 403 on every staff endpoint anyway; this only keeps the page from showing empty tables).
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { isStaff } = useSession();
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!isStaff) {
    return (
      <StatusPage
        code="403"
        title={t('council.staffOnlyTitle')}
        text={t('council.staffOnlyText')}
        action={{ label: t('construction.back'), onClick: () => navigate('/dashboard') }}
        standalone={false}
      />
    );
  }
  return <>{children}</>;
}

import { Alert, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { completeSignIn } from '../api/login-sequence';
import { safeReturnPath } from '../api/redirect';
import { finishSso, SsoError } from '../api/sso';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';

/** /auth0loginCallback: exchanges the provider's code (with the PKCE verifier) for a portal token, then signs in. */
export default function SsoCallbackPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // once, also under StrictMode
    started.current = true;
    (async () => {
      try {
        const { token, remember, returnTo } = await finishSso(location.search);
        await completeSignIn(token, remember, queryClient);
        navigate(safeReturnPath(returnTo), { replace: true });
      } catch (e) {
        if (e instanceof SsoError && e.reason === 'state') setError(t('sso.stateMismatch'));
        // Opened by hand or from a bookmark: no code from the provider, nothing failed but nothing happened either.
        else if (e instanceof SsoError && e.reason === 'missing-code') setError(t('sso.notCompleted'));
        else setError(`${t('sso.failed')} ${e instanceof Error && e.message ? e.message : ''}`.trim());
      }
    })();
  }, [location.search, navigate, queryClient, t]);

  return (
    <AuthShell title={t('signIn.title')}>
      {error ? (
        <Alert role="alert" type="error" showIcon message={error} />
      ) : (
        <div role="status" style={{ display: 'flex', gap: 12, alignItems: 'center', justifyContent: 'center' }}>
          <Spin />
          <span>{t('sso.working')}</span>
        </div>
      )}
      <AuthFootnote>
        <Link to="/signin">{t('sso.back')}</Link>
      </AuthFootnote>
    </AuthShell>
  );
}

import { Alert, Button } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/http/errors';
import { unlockAccount } from '../api/password-reset';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';

/**
 * /unlock?token=…: the link mailed when wrong passwords from anywhere held the account back (docs/SECURITY.md).
 * A button, not on load, so a mail program previewing the link does not use it up.
 */
export default function UnlockPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useMutation({ mutationFn: () => unlockAccount(token) });
  const badLink = mutation.error instanceof ApiError && mutation.error.status === 400;
  return (
    <AuthShell title={t('unlock.title')} subtitle={t('unlock.intro')}>
      {!token ? (
        <Alert role="alert" type="warning" showIcon message={t('unlock.missingToken')} />
      ) : mutation.isSuccess ? (
        <Alert
          role="status"
          type="success"
          showIcon
          message={t('unlock.done')}
          action={<Link to="/signin">{t('signIn.submit')}</Link>}
        />
      ) : (
        <>
          {mutation.isError ? (
            <Alert
              role="alert"
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              message={badLink ? t('unlock.invalidLink') : t('errors.serverText')}
              action={badLink ? <Link to="/forgotpassword">{t('reset.requestNew')}</Link> : undefined}
            />
          ) : null}
          <Button type="primary" size="large" block loading={mutation.isPending} onClick={() => mutation.mutate()}>
            {t('unlock.submit')}
          </Button>
        </>
      )}
      <AuthFootnote>
        <Link to="/signin">{t('forgot.back')}</Link>
      </AuthFootnote>
    </AuthShell>
  );
}

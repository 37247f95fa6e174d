import { useMutation } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../../components/query-state';
import { ApiError } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';
import { confirmEmail } from '../api/profile-api';

/**
 * /confirm-email?token=…: the link mailed to a new (or a sign-up's) address. Confirmed with a button, not on load,
 * so that a mail program that opens links to preview them does not confirm an address on its own.
 */
export default function ConfirmEmailPage() {
  const { t } = useFeatureTranslation(['profileEdit']);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useMutation({ mutationFn: () => confirmEmail(token) });
  const refused = confirm.error instanceof ApiError && [400, 409].includes(confirm.error.status);
  return (
    <AuthShell title={t('profileEdit:confirmTitle')} subtitle={t('profileEdit:confirmIntro')}>
      {!token ? (
        <Alert role="alert" type="warning" showIcon message={t('profileEdit:confirmMissing')} />
      ) : confirm.isSuccess ? (
        <Alert
          role="status"
          type="success"
          showIcon
          message={t('profileEdit:confirmDone', { email: confirm.data.email })}
          action={<Link to="/signin">{t('profileEdit:confirmSignIn')}</Link>}
        />
      ) : (
        <>
          {confirm.isError ? (
            <Alert
              role="alert"
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              message={refused ? t('profileEdit:confirmRefused') : t('profileEdit:confirmFailed')}
              description={errorText(confirm.error)}
            />
          ) : null}
          <Button type="primary" size="large" block loading={confirm.isPending} onClick={() => confirm.mutate()}>
            {t('profileEdit:confirmSubmit')}
          </Button>
        </>
      )}
      <AuthFootnote>
        <Link to="/signin">{t('profileEdit:confirmSignIn')}</Link>
      </AuthFootnote>
    </AuthShell>
  );
}

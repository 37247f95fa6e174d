import { Alert, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/http/errors';
import { requestPasswordReset } from '../api/password-reset';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const mutation = useMutation({
    // The same confirmation whatever the server says about the address; only a server or network failure shows an
    // error.
    mutationFn: (email: string) =>
      requestPasswordReset(email.trim()).catch((e: unknown) => {
        if (e instanceof ApiError && e.status < 500 && e.status !== 429) return null;
        throw e;
      }),
  });
  return (
    <AuthShell title={t('forgot.title')} subtitle={t('forgot.intro')}>
      {mutation.isSuccess ? (
        <Alert role="status" type="success" showIcon message={t('forgot.done')} />
      ) : (
        <>
          {mutation.isError ? (
            <Alert role="alert" type="error" showIcon style={{ marginBottom: 16 }} message={t('errors.serverText')} />
          ) : null}
          <Form<{ email: string }>
            layout="vertical"
            requiredMark={false}
            onFinish={(v) => mutation.mutate(v.email)}
            disabled={mutation.isPending}
          >
            <Form.Item
              name="email"
              label={t('forgot.email')}
              rules={[{ required: true, type: 'email', message: t('signUp.emailInvalid') }]}
            >
              <Input type="email" size="large" autoComplete="email" autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" size="large" block loading={mutation.isPending}>
              {t('forgot.submit')}
            </Button>
          </Form>
        </>
      )}
      <AuthFootnote>
        <Link to="/signin">{t('forgot.back')}</Link>
      </AuthFootnote>
    </AuthShell>
  );
}

import { Alert, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/http/errors';
import { confirmPasswordReset } from '../api/password-reset';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';
import { MIN_PASSWORD_LENGTH } from '@pecan/contract';
import { passwordRule } from '../lib/password-rule';

interface Values {
  password: string;
  confirm: string;
}

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useMutation({ mutationFn: (password: string) => confirmPasswordReset(token, password) });
  const badLink = mutation.error instanceof ApiError && [400, 404, 410, 422].includes(mutation.error.status);

  return (
    <AuthShell title={t('reset.title')} subtitle={t('reset.intro')}>
      {!token ? (
        <Alert
          role="alert"
          type="warning"
          showIcon
          message={t('reset.missingToken')}
          action={<Link to="/forgotpassword">{t('reset.requestNew')}</Link>}
        />
      ) : mutation.isSuccess ? (
        <Alert
          role="status"
          type="success"
          showIcon
          message={t('reset.done')}
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
              message={badLink ? t('reset.invalidLink') : t('errors.serverText')}
              action={badLink ? <Link to="/forgotpassword">{t('reset.requestNew')}</Link> : undefined}
            />
          ) : null}
          <Form<Values>
            layout="vertical"
            requiredMark={false}
            onFinish={(v) => mutation.mutate(v.password)}
            disabled={mutation.isPending}
          >
            <Form.Item
              name="password"
              label={t('reset.password')}
              extra={t('signUp.passwordHelp', { n: MIN_PASSWORD_LENGTH })}
              rules={[{ required: true, message: t('signUp.required') }, passwordRule(t)]}
            >
              <Input.Password size="large" autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('reset.confirm')}
              dependencies={['password']}
              rules={[
                { required: true, message: t('signUp.required') },
                ({ getFieldValue }) => ({
                  validator: (_, v) =>
                    !v || getFieldValue('password') === v
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('reset.mismatch'))),
                }),
              ]}
            >
              <Input.Password size="large" autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" size="large" block loading={mutation.isPending}>
              {t('reset.submit')}
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

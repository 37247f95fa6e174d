import { Alert, Button, Checkbox, Form, Input, Result } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { requestAccount, type AccountRequest } from '../api/account-request';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';
import { MIN_PASSWORD_LENGTH } from '@pecan/contract';
import { passwordRule } from '../lib/password-rule';
import { TermsLink } from './terms-dialog';

type Values = AccountRequest & { terms: boolean };
const FIELDS: (keyof AccountRequest)[] = ['name', 'email', 'username', 'password', 'handler_number'];

export default function SignUpPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const mutation = useMutation({
    mutationFn: ({ terms: _terms, ...body }: Values) =>
      requestAccount({
        ...body,
        name: body.name.trim(),
        email: body.email.trim(),
        username: body.username.trim(),
        handler_number: body.handler_number.trim(),
      }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) {
        const byField = fieldErrors(error);
        form.setFields(FIELDS.filter((f) => byField[f]).map((f) => ({ name: f, errors: byField[f] })));
      }
    },
  });
  const required = { required: true, whitespace: true, message: t('signUp.required') };
  const unmatched422 =
    mutation.error instanceof ApiError && mutation.error.status === 422
      ? mutation.error.errors.filter((e) => !FIELDS.some((f) => e.source?.pointer?.endsWith(`/${f}`)))
      : [];
  const otherError = mutation.isError && !(mutation.error instanceof ApiError && mutation.error.status === 422);

  if (mutation.isSuccess) {
    return (
      <AuthShell title={t('signUp.title')}>
        <Result
          status="success"
          title={t('signUp.doneTitle')}
          subTitle={t('signUp.doneText', { email: mutation.variables?.email ?? '' })}
          extra={<Link to="/signin">{t('forgot.back')}</Link>}
        />
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('signUp.title')} subtitle={t('signUp.intro')} wide>
      {otherError ? (
        <Alert
          role="alert"
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('signUp.failed', { message: (mutation.error as Error).message })}
        />
      ) : null}
      {unmatched422.length ? (
        <Alert
          role="alert"
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          message={unmatched422.map((e) => e.detail ?? e.title).join(' ')}
        />
      ) : null}
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark="optional"
        onFinish={(v) => mutation.mutate(v)}
        disabled={mutation.isPending}
        scrollToFirstError
      >
        <Form.Item name="name" label={t('signUp.name')} rules={[required]}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('signUp.email')}
          rules={[required, { type: 'email', message: t('signUp.emailInvalid') }]}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="username" label={t('signUp.username')} rules={[required]}>
          <Input autoComplete="username" autoCapitalize="none" spellCheck={false} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('signUp.password')}
          extra={t('signUp.passwordHelp', { n: MIN_PASSWORD_LENGTH })}
          rules={[{ required: true, message: t('signUp.required') }, passwordRule(t)]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="handler_number" label={t('signUp.handlerNumber')} rules={[required]}>
          <Input inputMode="numeric" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="terms"
          valuePropName="checked"
          extra={<TermsLink />}
          rules={[
            { validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error(t('signUp.termsRequired')))) },
          ]}
        >
          <Checkbox>{t('signUp.terms')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={mutation.isPending}>
          {t('signUp.submit')}
        </Button>
      </Form>
      <AuthFootnote>
        <Link to="/signin">{t('signUp.haveAccount')}</Link>
      </AuthFootnote>
    </AuthShell>
  );
}

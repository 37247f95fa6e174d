import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Field } from '../../../components/field';
import { Notice, PlainButton, TextDivider } from '../../../components/plain-button';
import { CheckboxInput, PasswordInput, TextInput } from '../../../components/text-input';
import { useSession } from '../../../lib/session/use-session';
import { useDemoCredentials } from '../api/demo-credentials';
import { returnPathFrom } from '../api/redirect';
import { useSsoConfig } from '../api/sso-config';
import { useSignIn } from '../hooks/use-sign-in';
import { AuthFootnote, AuthShell } from './auth-shell';
import { signInErrorMessage } from './sign-in-error';

/** The sign-in page ('/' and '/signin'). Kept light: no antd Form, the login sequence loads on submit. */
export default function SignInPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { signedIn } = useSession();
  const signIn = useSignIn();
  const demo = useDemoCredentials();
  const sso = useSsoConfig();
  const busy = useRef(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [touched, setTouched] = useState(false);
  const returnTo = returnPathFrom(location.state, location.search);
  const sessionEnded = (location.state as { sessionEnded?: boolean } | null)?.sessionEnded === true;

  // Already signed in (and not in the middle of signing in): go on.
  if (signedIn && !busy.current) return <Navigate to={returnTo} replace />;

  const usernameError = touched && !username.trim() ? t('signIn.usernameRequired') : null;
  const passwordError = touched && !password ? t('signIn.passwordRequired') : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    busy.current = true;
    signIn.mutate(
      { username, password, remember },
      {
        onSuccess: () => navigate(returnTo, { replace: true }),
        onSettled: () => {
          busy.current = false;
        },
      },
    );
  };

  const error = signIn.isError ? signInErrorMessage(signIn.error, t, i18n.language) : null;
  const pending = signIn.isPending;

  return (
    <AuthShell title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
      {sessionEnded && !error ? <Notice type="info" role="status" title={t('signIn.sessionEnded')} style={{ marginBottom: 16 }} /> : null}
      {error ? <Notice role="alert" type="error" title={error} style={{ marginBottom: 16 }} /> : null}
      <form onSubmit={onSubmit} noValidate>
        <Field label={t('signIn.username')} error={usernameError}>
          <TextInput
            name="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            prefix={<UserOutlined aria-hidden="true" />}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            disabled={pending}
            required
          />
        </Field>
        <Field label={t('signIn.password')} error={passwordError}>
          <PasswordInput
            showLabel={t('signIn.showPassword')}
            hideLabel={t('signIn.hidePassword')}
            name="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            prefix={<LockOutlined aria-hidden="true" />}
            autoComplete="current-password"
            disabled={pending}
            required
          />
        </Field>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 8, marginBottom: 16 }}>
          <CheckboxInput name="remember" checked={remember} onChange={(e) => setRemember(e.target.checked)} disabled={pending} label={t('signIn.rememberMe')} />
          <Link to="/forgotpassword">{t('signIn.forgot')}</Link>
        </div>
        <PlainButton variant="primary" type="submit" size="large" block loading={pending}>
          {t('signIn.submit')}
        </PlainButton>
      </form>
      {sso.data ? (
        <>
          <TextDivider>{t('signIn.or')}</TextDivider>
          <PlainButton size="large" block onClick={() => void import('../api/sso').then(({ startSso }) => startSso(sso.data!, remember, returnTo))}>
            {t('signIn.sso', { label: sso.data.label ?? 'SSO' })}
          </PlainButton>
        </>
      ) : null}
      <AuthFootnote>
        <Link to="/signup">{t('signIn.create')}</Link>
      </AuthFootnote>
      {demo.data ? (
        <Notice type="info" style={{ marginTop: 20 }} title={t('signIn.demoTitle')}>
            <>
              <p style={{ margin: '0 0 8px' }}>
                {t('signIn.demoText')} <code dir="ltr" style={{ fontSize: 14, fontWeight: 600, whiteSpace: 'nowrap' }}>{demo.data.password}</code>
              </p>
              <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 6 }}>
                {demo.data.users.map((u) => (
                  <li key={u.username} style={{ display: 'flex', gap: 8, alignItems: 'baseline', flexWrap: 'wrap' }}>
                    <PlainButton
                      size="small"
                      aria-label={t('signIn.demoUse', { username: u.username })}
                      onClick={() => {
                        setUsername(u.username);
                        setPassword(demo.data!.password);
                      }}
                    >
                      {u.username}
                    </PlainButton>
                    <bdi>{u.description}</bdi>
                  </li>
                ))}
              </ul>
            </>
        </Notice>
      ) : null}
    </AuthShell>
  );
}

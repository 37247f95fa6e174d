import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Field } from '../../../components/field';
import { Notice, PlainButton, TextDivider } from '../../../components/plain-button';
import { CheckboxInput, PasswordInput, TextInput } from '../../../components/text-input';
import { clearSessionEnded, sessionEndedNotice } from '../../../lib/session/ended-notice';
import { useSession } from '../../../lib/session/use-session';
import { useDemoCredentials } from '../api/demo-credentials';
import { returnPathFrom } from '../api/redirect';
import { useSsoConfig } from '../api/sso-config';
import { useSignIn, warmUpSignIn } from '../hooks/use-sign-in';
import { AuthFootnote, AuthShell } from '../../../components/auth-shell';
import { signInErrorMessage } from './sign-in-error';
import { ApiError } from '../../../lib/http/errors';

const SecondFactorStep = lazy(() => import('./second-factor-step'));

/** Which second-factor step the server asked for, if any (staff only). */
type Step = { mode: 'password' } | { mode: 'code' } | { mode: 'enroll'; token: string };

function stepAsked(error: unknown): Step | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const code = error.errors[0]?.code;
  if (code === 'mfa_required') return { mode: 'code' };
  const token = (error.body as { enrollment_token?: unknown } | null)?.enrollment_token;
  if (code === 'mfa_enrollment_required' && typeof token === 'string') return { mode: 'enroll', token };
  return null;
}

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
  const [step, setStep] = useState<Step>({ mode: 'password' });
  const [recoveryCodes, setRecoveryCodes] = useState<{ codes: string[]; done: () => void } | null>(null);
  const returnTo = returnPathFrom(location.state, location.search);
  const [endedFlag] = useState(sessionEndedNotice);
  useEffect(clearSessionEnded, []);
  const sessionEnded = endedFlag || (location.state as { sessionEnded?: boolean } | null)?.sessionEnded === true;

  // Already signed in (and not in the middle of signing in): go on.
  if (signedIn && !busy.current) return <Navigate to={returnTo} replace />;

  const usernameError = touched && !username.trim() ? t('signIn.usernameRequired') : null;
  const passwordError = touched && !password ? t('signIn.passwordRequired') : null;

  const submit = (factor?: Record<string, string>) => {
    busy.current = true;
    signIn.mutate(
      { username, password, remember, factor },
      {
        onSuccess: () => navigate(returnTo, { replace: true }),
        // A staff user's right password: the server asks for the authenticator code (or its first set-up).
        onError: (err) => {
          const asked = stepAsked(err);
          if (asked) setStep(asked);
        },
        onRecoveryCodes: (codes) => new Promise<void>((done) => setRecoveryCodes({ codes, done })),
        onSettled: () => {
          busy.current = false;
        },
      },
    );
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    submit();
  };

  const pending = signIn.isPending;
  const factorAsked = signIn.isError && stepAsked(signIn.error) !== null;
  const error = signIn.isError && !factorAsked ? signInErrorMessage(signIn.error, t, i18n.language) : null;

  if (step.mode !== 'password') {
    return (
      <AuthShell title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
        <Suspense fallback={<div style={{ minHeight: 200 }} aria-busy="true" />}>
          <SecondFactorStep
            mode={step.mode}
            enrollmentToken={step.mode === 'enroll' ? step.token : null}
            pending={pending && !recoveryCodes}
            error={signIn.isError && !factorAsked ? signIn.error : null}
            recoveryCodes={recoveryCodes?.codes ?? null}
            onSubmit={(factor) => submit(factor)}
            onCancel={() => {
              signIn.reset();
              setStep({ mode: 'password' });
              setPassword('');
            }}
            onContinue={() => {
              recoveryCodes?.done();
              setRecoveryCodes(null);
            }}
          />
        </Suspense>
      </AuthShell>
    );
  }

  return (
    <AuthShell title={t('signIn.title')} subtitle={t('signIn.subtitle')}>
      {sessionEnded && !error ? (
        <Notice type="info" role="status" title={t('signIn.sessionEnded')} style={{ marginBottom: 16 }} />
      ) : null}
      {error ? <Notice role="alert" type="error" title={error} style={{ marginBottom: 16 }} /> : null}
      <form onSubmit={onSubmit} onInput={warmUpSignIn} noValidate>
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
        <div
          style={{
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'center',
            flexWrap: 'wrap',
            gap: 8,
            marginBottom: 16,
          }}
        >
          <CheckboxInput
            name="remember"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
            disabled={pending}
            label={t('signIn.rememberMe')}
          />
          <Link to="/forgotpassword">{t('signIn.forgot')}</Link>
        </div>
        <PlainButton variant="primary" type="submit" size="large" block loading={pending}>
          {t('signIn.submit')}
        </PlainButton>
      </form>
      {sso.data ? (
        <>
          <TextDivider>{t('signIn.or')}</TextDivider>
          <PlainButton
            size="large"
            block
            onClick={() => void import('../api/sso').then(({ startSso }) => startSso(sso.data!, remember, returnTo))}
          >
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
              {t('signIn.demoText')}{' '}
              <code dir="ltr" style={{ fontSize: 14, fontWeight: 600, whiteSpace: 'nowrap' }}>
                {demo.data.password}
              </code>
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
                  {u.totpSecret ? (
                    <span style={{ flexBasis: '100%' }}>
                      {t('signIn.demoKey')}{' '}
                      <code dir="ltr" style={{ fontSize: 13, fontWeight: 600, wordBreak: 'break-all' }}>
                        {u.totpSecret}
                      </code>
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </>
        </Notice>
      ) : null}
    </AuthShell>
  );
}

import { KeyOutlined, SafetyOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/field';
import { Notice, PlainButton } from '../../../components/plain-button';
import { TextInput } from '../../../components/text-input';
import { ApiError } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { enrollmentKey, type EnrollmentKey } from '../../../lib/oauth/oauth-client';
import { signInErrorMessage } from './sign-in-error';

/**
 * The staff second factor on /signin, loaded only when the server asks for it (so the page's first load stays
 * small): the authenticator code (or a recovery code), the first set-up with a QR code, and the recovery codes
 * shown once after the set-up.
 */
export interface SecondFactorProps {
  mode: 'code' | 'enroll';
  enrollmentToken: string | null;
  pending: boolean;
  /** The last attempt's error, when it was not a request for the second factor. */
  error: unknown;
  recoveryCodes: string[] | null;
  onSubmit: (factor: Record<string, string>) => void;
  onCancel: () => void;
  onContinue: () => void;
}

export default function SecondFactorStep(props: SecondFactorProps) {
  if (props.recoveryCodes) return <RecoveryCodes codes={props.recoveryCodes} onContinue={props.onContinue} />;
  return props.mode === 'enroll' ? <Enroll {...props} /> : <CodeEntry {...props} />;
}

function useErrorText(error: unknown, recovery: boolean): string | null {
  const { t } = useFeatureTranslation('account');
  const { t: common, i18n } = useTranslation();
  if (!error) return null;
  if (error instanceof ApiError && error.status === 400 && error.errors[0]?.code === 'invalid_grant') {
    return recovery ? t('account:mfa.wrongRecovery') : t('account:mfa.wrongCode');
  }
  return signInErrorMessage(error, common, i18n.language);
}

/** Six digits, as the phone shows them (spaces dropped). */
const digitsOf = (value: string) => value.replace(/\D/g, '').slice(0, 6);

function CodeInput({
  value,
  onChange,
  disabled,
  error,
}: {
  value: string;
  onChange: (v: string) => void;
  disabled: boolean;
  error: string | null;
}) {
  const { t } = useFeatureTranslation('account');
  return (
    <Field label={t('account:mfa.codeLabel')} error={error}>
      <TextInput
        name="totp"
        value={value}
        onChange={(e) => onChange(digitsOf(e.target.value))}
        prefix={<SafetyOutlined aria-hidden="true" />}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        dir="ltr"
        autoFocus
        disabled={disabled}
        required
      />
    </Field>
  );
}

function CodeEntry({ pending, error, onSubmit, onCancel }: SecondFactorProps) {
  const { t } = useFeatureTranslation('account');
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const failure = useErrorText(error, recovery);
  const missing = touched && (recovery ? code.trim() === '' : code.length !== 6);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (recovery ? code.trim() === '' : code.length !== 6) return;
    onSubmit(recovery ? { recovery_code: code.trim() } : { totp: code });
  };
  const switchMode = () => {
    setRecovery(!recovery);
    setCode('');
    setTouched(false);
  };
  return (
    <form onSubmit={submit} noValidate>
      <h2 style={{ fontSize: 18, margin: '0 0 8px' }}>{t('account:mfa.codeTitle')}</h2>
      <p style={{ margin: '0 0 16px' }}>{recovery ? t('account:mfa.recoveryText') : t('account:mfa.codeText')}</p>
      {failure ? <Notice role="alert" type="error" title={failure} style={{ marginBottom: 16 }} /> : null}
      {recovery ? (
        <Field label={t('account:mfa.recoveryLabel')} error={missing ? t('account:mfa.recoveryRequired') : null}>
          <TextInput
            name="recovery_code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            prefix={<KeyOutlined aria-hidden="true" />}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            dir="ltr"
            autoFocus
            disabled={pending}
            required
          />
        </Field>
      ) : (
        <CodeInput
          value={code}
          onChange={setCode}
          disabled={pending}
          error={missing ? t('account:mfa.codeRequired') : null}
        />
      )}
      <PlainButton variant="primary" type="submit" size="large" block loading={pending}>
        {t('account:mfa.verify')}
      </PlainButton>
      <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginTop: 16 }}>
        <PlainButton size="small" onClick={switchMode} disabled={pending}>
          {recovery ? t('account:mfa.useCode') : t('account:mfa.useRecovery')}
        </PlainButton>
        <PlainButton size="small" onClick={onCancel} disabled={pending}>
          {t('account:mfa.back')}
        </PlainButton>
      </div>
    </form>
  );
}

/** "ABCD EFGH ..." is easier to type from the screen than 32 letters in a row. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function Enroll({ enrollmentToken, pending, error, onSubmit, onCancel }: SecondFactorProps) {
  const { t } = useFeatureTranslation('account');
  const { token } = theme.useToken();
  const [key, setKey] = useState<EnrollmentKey | null>(null);
  const [keyFailed, setKeyFailed] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const failure = useErrorText(error, false);

  useEffect(() => {
    if (!enrollmentToken) return;
    let live = true;
    enrollmentKey(enrollmentToken).then(
      async (k) => {
        if (!live) return;
        setKey(k);
        // The QR code library is loaded here only, never with the sign-in page.
        const { toDataURL } = await import('qrcode');
        const url = await toDataURL(k.otpauth_uri, { margin: 1, width: 200, errorCorrectionLevel: 'M' });
        if (live) setQr(url);
      },
      () => live && setKeyFailed(true),
    );
    return () => {
      live = false;
    };
  }, [enrollmentToken]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (code.length !== 6 || !enrollmentToken) return;
    onSubmit({ enrollment_token: enrollmentToken, totp: code });
  };
  return (
    <form onSubmit={submit} noValidate>
      <h2 style={{ fontSize: 18, margin: '0 0 8px' }}>{t('account:mfa.enrollTitle')}</h2>
      <p style={{ margin: '0 0 16px' }}>{t('account:mfa.enrollText')}</p>
      {keyFailed ? (
        <Notice role="alert" type="error" title={t('account:mfa.keyFailed')} style={{ marginBottom: 16 }} />
      ) : null}
      {failure ? <Notice role="alert" type="error" title={failure} style={{ marginBottom: 16 }} /> : null}
      {key ? (
        <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap', marginBottom: 16 }}>
          <div
            style={{
              width: 200,
              height: 200,
              background: '#fff',
              border: `1px solid ${token.colorBorder}`,
              borderRadius: token.borderRadius,
              flex: 'none',
            }}
          >
            {qr ? (
              <img src={qr} width={200} height={200} alt={t('account:mfa.qrAlt')} data-otpauth={key.otpauth_uri} />
            ) : null}
          </div>
          <div style={{ minWidth: 0, flex: '1 1 160px' }}>
            <div style={{ marginBottom: 4 }}>{t('account:mfa.keyLabel')}</div>
            <code
              dir="ltr"
              data-testid="totp-secret"
              style={{ fontSize: 15, fontWeight: 600, wordBreak: 'break-word' }}
            >
              {grouped(key.secret)}
            </code>
          </div>
        </div>
      ) : keyFailed ? null : (
        <p aria-busy="true">{t('account:mfa.loadingKey')}</p>
      )}
      <CodeInput
        value={code}
        onChange={setCode}
        disabled={pending || !key}
        error={touched && code.length !== 6 ? t('account:mfa.codeRequired') : null}
      />
      <PlainButton variant="primary" type="submit" size="large" block loading={pending} disabled={!key}>
        {t('account:mfa.confirm')}
      </PlainButton>
      <div style={{ marginTop: 16 }}>
        <PlainButton size="small" onClick={onCancel} disabled={pending}>
          {t('account:mfa.back')}
        </PlainButton>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onContinue }: { codes: string[]; onContinue: () => void }) {
  const { t } = useFeatureTranslation('account');
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <h2 style={{ fontSize: 18, margin: '0 0 8px' }}>{t('account:mfa.codesTitle')}</h2>
      <Notice type="warning" title={t('account:mfa.codesText')} style={{ marginBottom: 16 }} />
      <ol
        data-testid="recovery-codes"
        dir="ltr"
        style={{
          columns: 2,
          columnGap: 24,
          margin: '0 0 16px',
          paddingInlineStart: 28,
          fontFamily: 'monospace',
          fontSize: 15,
          lineHeight: '28px',
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <PlainButton
          onClick={() =>
            void navigator.clipboard?.writeText(codes.join('\n')).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? t('account:mfa.copied') : t('account:mfa.copy')}
        </PlainButton>
        <PlainButton variant="primary" onClick={onContinue}>
          {t('account:mfa.continue')}
        </PlainButton>
      </div>
    </div>
  );
}

import { MIN_PASSWORD_LENGTH, passwordRuleBroken } from '@pecan/contract';
import { LockOutlined, SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Input, Row, Skeleton, Switch, Typography } from 'antd';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { ErrorWithRetry, errorText } from '../../../components/query-state';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { attr, bool } from '../../../lib/portal/entities';
import { str } from '../../../lib/portal/text';
import { sessionStore } from '../../../lib/session/session-store';
import { useSession } from '../../../lib/session/use-session';
import { queryKeys } from '../../../lib/query-keys';
import {
  changePassword,
  fullProfileQuery,
  patchMe,
  profileKeys,
  type ProfileValues,
  type User,
} from '../api/profile-api';
import { EmailChangeCard } from './email-change-card';

function Labelled({
  id,
  label,
  error,
  children,
  help,
}: {
  id: string;
  label: string;
  error?: string;
  help?: string;
  children: ReactNode;
}) {
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 4, fontWeight: 500 }}>
        {label}
      </label>
      {children}
      {help ? (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 2 }}>
          {help}
        </Typography.Text>
      ) : null}
      {error ? (
        <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 2 }}>
          {error}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** One text field of the profile's details: its label, what the browser may fill it with, and its rules. */
interface DetailField {
  key: 'field_first_name' | 'field_last_name' | 'field_job_title' | 'field_phone';
  label: 'profileEdit:firstName' | 'profileEdit:lastName' | 'profileEdit:jobTitle' | 'profileEdit:phone';
  autoComplete: string;
  /** Required: never blank. Optional fields save an emptied input as null. */
  required?: boolean;
  /** A phone number: the phone keyboard, and its digits left to right in every language. */
  phone?: boolean;
}

/** The details' text fields, in their order on the page. */
const DETAIL_FIELDS: readonly DetailField[] = [
  { key: 'field_first_name', label: 'profileEdit:firstName', autoComplete: 'given-name', required: true },
  { key: 'field_last_name', label: 'profileEdit:lastName', autoComplete: 'family-name', required: true },
  { key: 'field_job_title', label: 'profileEdit:jobTitle', autoComplete: 'organization-title' },
  { key: 'field_phone', label: 'profileEdit:phone', autoComplete: 'tel', phone: true },
];

const isMissing = (field: DetailField, values: ProfileValues): boolean =>
  !!field.required && (values[field.key] ?? '').trim() === '';

function DetailInput({
  field,
  value,
  missing,
  serverError,
  onChange,
}: {
  field: DetailField;
  value: string | null;
  missing: boolean;
  serverError?: string;
  onChange: (value: string | null) => void;
}) {
  const { t } = useFeatureTranslation(['profileEdit']);
  const id = useId();
  return (
    <Labelled id={id} label={t(field.label)} error={missing ? t('profileEdit:required') : serverError || undefined}>
      <Input
        id={id}
        type={field.phone ? 'tel' : undefined}
        value={value ?? ''}
        onChange={(e) => onChange(field.required ? e.target.value : e.target.value || null)}
        autoComplete={field.autoComplete}
        maxLength={255}
        status={missing ? 'error' : undefined}
        dir={field.phone ? 'ltr' : undefined}
      />
    </Labelled>
  );
}

const valuesOf = (u: User): ProfileValues => ({
  field_first_name: str(attr(u, 'field_first_name')),
  field_last_name: str(attr(u, 'field_last_name')),
  field_job_title: str(attr(u, 'field_job_title')) || null,
  field_phone: str(attr(u, 'field_phone')) || null,
  field_show_in_directory: bool(u, 'field_show_in_directory'),
});

function PasswordCard() {
  const { t } = useFeatureTranslation(['profileEdit', 'portalData']);
  const { message } = App.useApp();
  const ids = { cur: useId(), next: useId(), again: useId() };
  const [cur, setCur] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const change = useMutation({
    mutationFn: () => changePassword(cur, next),
    onSuccess: () => {
      message.success(t('profileEdit:passwordChanged'));
      setCur('');
      setNext('');
      setAgain('');
    },
  });
  const tooShort = next.length > 0 && passwordRuleBroken(next) === 'tooShort';
  const mismatch = again.length > 0 && again !== next;
  const ready = cur.length > 0 && passwordRuleBroken(next) === null && again === next;
  const err = change.error;
  return (
    <Card
      size="small"
      type="inner"
      title={
        <span>
          <LockOutlined /> {t('profileEdit:passwordTitle')}
        </span>
      }
    >
      {/* Named, as the e-mail card's form is: both ask for the current password. */}
      <form
        aria-label={t('profileEdit:passwordTitle')}
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) change.mutate();
        }}
        noValidate
      >
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={sessionStore.getSnapshot().profile.username ?? ''}
          readOnly
          hidden
        />
        <Labelled id={ids.cur} label={t('profileEdit:currentPassword')}>
          <Input.Password
            id={ids.cur}
            value={cur}
            onChange={(e) => setCur(e.target.value)}
            autoComplete="current-password"
          />
        </Labelled>
        <Labelled
          id={ids.next}
          label={t('profileEdit:newPassword')}
          help={t('profileEdit:passwordRule', { n: MIN_PASSWORD_LENGTH })}
          error={tooShort ? t('profileEdit:tooShort', { n: MIN_PASSWORD_LENGTH }) : undefined}
        >
          <Input.Password
            id={ids.next}
            value={next}
            onChange={(e) => setNext(e.target.value)}
            autoComplete="new-password"
            status={tooShort ? 'error' : undefined}
          />
        </Labelled>
        <Labelled
          id={ids.again}
          label={t('profileEdit:repeatPassword')}
          error={mismatch ? t('profileEdit:mismatch') : undefined}
        >
          <Input.Password
            id={ids.again}
            value={again}
            onChange={(e) => setAgain(e.target.value)}
            autoComplete="new-password"
            status={mismatch ? 'error' : undefined}
          />
        </Labelled>
        {err ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            style={{ marginBottom: 12 }}
            message={
              err instanceof ApiError && (err.status === 400 || err.status === 403 || err.status === 422)
                ? t('profileEdit:passwordRefused')
                : t('portalData:saveFailed')
            }
            description={errorText(err)}
          />
        ) : null}
        <Button htmlType="submit" type="primary" disabled={!ready} loading={change.isPending}>
          {t('profileEdit:changePassword')}
        </Button>
      </form>
    </Card>
  );
}

/**
 * The editable part of My Profile (details, password, e-mail). It lives on /dashboard/my-profile, the spec's one
 * profile page; /dashboard/profile, where it used to be a page of its own, redirects there.
 */
export function ProfileEditor() {
  const { t } = useFeatureTranslation(['profileEdit', 'portalData']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const userId = profile.userUid ?? '';
  const dirId = useId();
  const query = useQuery({ ...fullProfileQuery(userId), enabled: !!userId });
  const [values, setValues] = useState<ProfileValues | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (query.data && !values) setValues(valuesOf(query.data));
  }, [query.data, values]);
  const save = useMutation({
    mutationFn: () =>
      patchMe(query.data!, {
        ...values!,
        field_first_name: values!.field_first_name.trim(),
        field_last_name: values!.field_last_name.trim(),
      }),
    onSuccess: (user) => {
      queryClient.setQueryData(profileKeys.full(userId), user);
      setValues(valuesOf(user));
      sessionStore.setProfile({ userFirstName: str(attr(user, 'field_first_name')) || null });
      void queryClient.invalidateQueries({ queryKey: queryKeys.contacts });
      message.success(t('profileEdit:saved'));
    },
    onError: (e) => {
      if (e instanceof ApiError && e.status === 422)
        setServerErrors(Object.fromEntries(Object.entries(fieldErrors(e)).map(([k, v]) => [k, v[0]])));
    },
  });
  const set = <K extends keyof ProfileValues>(k: K, v: ProfileValues[K]) => {
    setServerErrors((s) => ({ ...s, [k]: '' }));
    setValues((cur) => (cur ? { ...cur, [k]: v } : cur));
  };
  const tooLong = (s: string | null) => (s ?? '').length > 255;
  const invalid =
    values !== null &&
    (DETAIL_FIELDS.some((field) => isMissing(field, values)) ||
      tooLong(values.field_job_title) ||
      tooLong(values.field_phone));
  const err = save.error;

  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} lg={14}>
        <Card size="small" type="inner" title={t('profileEdit:detailsTitle')}>
          {!values ? (
            query.error ? (
              <ErrorWithRetry error={query.error} onRetry={query.refetch} />
            ) : (
              <Skeleton active />
            )
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (!invalid) save.mutate();
              }}
              noValidate
            >
              <Row gutter={16}>
                {DETAIL_FIELDS.map((field) => (
                  <Col xs={24} md={12} key={field.key}>
                    <DetailInput
                      field={field}
                      value={values[field.key]}
                      missing={isMissing(field, values)}
                      serverError={serverErrors[field.key]}
                      onChange={(v) => set(field.key, v)}
                    />
                  </Col>
                ))}
              </Row>
              <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', marginBottom: 16 }}>
                <Switch
                  id={dirId}
                  checked={values.field_show_in_directory}
                  onChange={(v) => set('field_show_in_directory', v)}
                />
                <div>
                  <label htmlFor={dirId} style={{ fontWeight: 500 }}>
                    {t('profileEdit:showInDirectory')}
                  </label>
                  <Typography.Text type="secondary" style={{ display: 'block' }}>
                    {t('profileEdit:showInDirectoryHelp')}
                  </Typography.Text>
                </div>
              </div>
              {err ? (
                <Alert
                  type="error"
                  showIcon
                  role="alert"
                  style={{ marginBottom: 12 }}
                  message={
                    err instanceof ApiError && err.status === 409
                      ? t('profileEdit:conflict')
                      : t('portalData:saveFailed')
                  }
                  description={errorText(err)}
                  action={
                    err instanceof ApiError && err.status === 409 ? (
                      <Button
                        onClick={async () => {
                          const fresh = await query.refetch();
                          if (fresh.data) setValues(valuesOf(fresh.data));
                          save.reset();
                        }}
                      >
                        {t('profileEdit:reload')}
                      </Button>
                    ) : undefined
                  }
                />
              ) : null}
              <Button
                type="primary"
                htmlType="submit"
                icon={<SaveOutlined />}
                loading={save.isPending}
                disabled={invalid}
              >
                {t('profileEdit:save')}
              </Button>
            </form>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <PasswordCard />
        <EmailChangeCard currentEmail={query.data ? str(query.data.mail) || null : null} />
      </Col>
    </Row>
  );
}

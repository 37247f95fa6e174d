import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Flex, Input, InputNumber, Radio, Row, Space, Typography, theme } from 'antd';
import { FORM_5_FIELDS, formatCents, type FieldDef } from '@pecan/contract';
import { useEffect, useId, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AutosaveNotices, DraftActions, SaveDraftButton } from '../../../components/autosave/autosave-bar';
import { unsavedCopyKey } from '../../../components/autosave/unsaved-copy';
import { useAutosave } from '../../../components/autosave/use-autosave';
import { useSession } from '../../../lib/session/use-session';
import { ErrorWithRetry } from '../../../components/query-state';
import { WriteErrorAlert } from '../../../components/write-error-alert';
import { AugustAmendNotice } from './august-amend-notice';
import { Form5Problems } from './form5-problems';
import { useDocumentTitle } from '../../../components/use-document-title';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatMoney, formatNumber } from '../../../lib/i18n/format';
import { keepExpanded } from '../../../lib/jsonapi/deserialize';
import { bool, one } from '../../../lib/portal/entities';
import { ltr, str } from '../../../lib/portal/text';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { sessionStore } from '../../../lib/session/session-store';
import { form5Keys, form5Query, patchForm5, type Form5 } from '../api/form5-api';
import {
  FIELD_GROUPS,
  attr,
  augustDifferences,
  certificationProblems,
  draftOf,
  liveComputed,
  liveErrors,
  patchAttributes,
  type Draft,
} from './form5-fields';

const FIELD_BY_NAME = new Map(FORM_5_FIELDS.map((f) => [f.name, f]));

function FieldRow({
  field,
  value,
  computedValue,
  error,
  onChange,
  lang,
}: {
  field: FieldDef;
  value: unknown;
  computedValue?: number;
  error?: string;
  onChange: (v: unknown) => void;
  lang: string;
}) {
  const { t } = useFeatureTranslation(['yearEnd']);
  const { token } = theme.useToken();
  const id = useId();
  const label = t(`yearEnd:fields.${field.name}`);
  const unit = field.unit ? t(`yearEnd:units.${field.unit}`, { defaultValue: field.unit }) : undefined;
  const errId = `${id}-err`;
  let control;
  if (field.entry === 'computed') {
    const shown =
      computedValue === undefined
        ? ''
        : field.kind === 'money'
          ? formatMoney(formatCents(computedValue), lang)
          : formatNumber(computedValue, lang);
    control = (
      <Input
        id={id}
        value={shown}
        readOnly
        aria-readonly
        suffix={field.kind === 'money' ? undefined : unit}
        style={{ background: token.colorFillSecondary, fontWeight: 600 }}
      />
    );
  } else if (field.kind === 'pounds') {
    control = (
      <InputNumber
        id={id}
        style={{ width: '100%' }}
        min={0}
        precision={0}
        value={typeof value === 'number' ? value : null}
        onChange={(v) => onChange(v === null ? null : v)}
        addonAfter={unit}
        status={error ? 'error' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
        inputMode="numeric"
      />
    );
  } else if (field.kind === 'date') {
    control = (
      <Input
        id={id}
        type="date"
        value={str(value)}
        onChange={(e) => onChange(e.target.value || null)}
        status={error ? 'error' : undefined}
        aria-describedby={error ? errId : undefined}
      />
    );
  } else {
    control = (
      <Input
        id={id}
        value={str(value)}
        inputMode="decimal"
        placeholder={field.kind === 'price' ? '0.0000' : field.kind === 'money' ? '0.00' : '0.4800'}
        onChange={(e) => onChange(e.target.value.trim() === '' ? null : e.target.value.trim())}
        addonBefore={field.kind === 'price' || field.kind === 'money' ? '$' : undefined}
        addonAfter={field.kind === 'price' ? t('yearEnd:units.perLb') : undefined}
        status={error ? 'error' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errId : undefined}
      />
    );
  }
  return (
    <div style={{ marginBottom: 14 }}>
      <label htmlFor={id} style={{ display: 'block', marginBottom: 4, fontWeight: 500 }}>
        {label}
        {field.entry === 'computed' ? (
          <Typography.Text type="secondary"> · {t('yearEnd:computed')}</Typography.Text>
        ) : null}
      </label>
      {control}
      {error ? (
        <div id={errId} role="alert" style={{ color: token.colorErrorText, marginTop: 4 }}>
          {t(`yearEnd:errors.${field.kind}`, { defaultValue: error })}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The August Form 1's inventory beside this form's, and the difference on each basis: the handler sees why the
 * August Form 1 must be amended (and by how much) before answering.
 */
function AugustComparison({
  form,
  differences,
  lang,
}: {
  form: Form5;
  differences: ReturnType<typeof augustDifferences>;
  lang: string;
}) {
  const { t } = useFeatureTranslation(['yearEnd']);
  if (form.field_aug_form_1_inventory_inshell === null || form.field_aug_form_1_inventory_inshell === undefined) {
    return <Typography.Paragraph type="secondary">{t('yearEnd:aug.noAugust')}</Typography.Paragraph>;
  }
  const lb = (n: number) => formatNumber(n, lang);
  return (
    <div data-testid="august-comparison" style={{ marginBottom: 12 }}>
      <Typography.Paragraph style={{ marginBottom: 4 }}>
        {t('yearEnd:aug.augustFigures', {
          inshell: lb(Number(form.field_aug_form_1_inventory_inshell)),
          shelled: lb(Number(form.field_aug_form_1_inventory_shelled ?? 0)),
        })}
      </Typography.Paragraph>
      {differences.length === 0 ? (
        <Typography.Paragraph type="success" style={{ marginBottom: 0 }}>
          {t('yearEnd:aug.agrees')}
        </Typography.Paragraph>
      ) : (
        <Alert
          type="warning"
          showIcon
          role="status"
          message={t('yearEnd:aug.mustAmend')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {differences.map((d) => (
                <li key={d.basis}>
                  {t(`yearEnd:aug.difference_${d.basis}`, {
                    form5: lb(d.form5),
                    august: lb(d.augustForm1),
                    difference: `${d.difference > 0 ? '+' : '−'}${lb(Math.abs(d.difference))}`,
                  })}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </div>
  );
}

/** Edits a draft year-end form: every field, live checks and the shaded computed fields, then save and certify. */
export default function Form5EditPage() {
  const { formId = '' } = useParams();
  const { t, i18n } = useFeatureTranslation(['yearEnd', 'portalData']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(form5Query(formId));
  const [draft, setDraft] = useState<Draft | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const form = query.data;
  useDocumentTitle(t('yearEnd:editTitle'));

  useEffect(() => {
    if (form && !draft) setDraft(draftOf(form));
  }, [form, draft]);

  const errors = useMemo(() => (draft ? liveErrors(draft) : {}), [draft]);
  const computed = useMemo(() => (draft && form ? liveComputed(draft, form) : {}), [draft, form]);
  const problems = useMemo(
    () => (draft && form ? certificationProblems(draft, form).filter((p) => !errors[p.field]) : []),
    [draft, form, errors],
  );
  const differences = useMemo(() => (draft && form ? augustDifferences(draft, form) : []), [draft, form]);
  const mustAmend = differences.length > 0;
  // The answer follows the figures: when they differ from the August Form 1, "no" is not an answer (986.175(a)).
  useEffect(() => {
    if (mustAmend && draft && draft.field_aug_form_1_amend_reqd !== true)
      setDraft((d) => ({ ...(d ?? {}), field_aug_form_1_amend_reqd: true }));
  }, [mustAmend, draft]);

  const { profile } = useSession();
  const savedValues = useMemo(() => (form ? draftOf(form) : {}), [form]);
  const saveDraft = async (values: Draft) => {
    try {
      const saved = await patchForm5(
        formId,
        patchAttributes(values),
        queryClient.getQueryData<Form5>(form5Keys.one(formId))?.changed ?? form?.changed,
      );
      setServerErrors({});
      sessionStore.setItem(STORAGE_KEYS.augForm1AmendReqd, String(bool(saved, 'field_aug_form_1_amend_reqd')));
      queryClient.setQueryData<Form5>(form5Keys.one(formId), (cached) => keepExpanded(saved, cached));
      void queryClient.invalidateQueries({ queryKey: form5Keys.lists });
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) {
        const f = fieldErrors(e);
        setServerErrors(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v[0]])));
      }
      throw e;
    }
  };
  const autosave = useAutosave({
    storageKey: profile.username && formId ? unsavedCopyKey(profile.username, `apc_form_5:${formId}`) : null,
    values: draft ?? savedValues,
    saved: savedValues,
    enabled: !!form && !!draft && str(form.field_form_status) === 'draft',
    valid: Object.keys(errors).length === 0,
    save: saveDraft,
    restore: setDraft,
  });
  const save = useMutation({
    mutationFn: async () => {
      if (!(await autosave.saveNow())) throw autosave.error ?? new Error(t('portalData:saveFailed'));
    },
    onSuccess: () => {
      const amend = Number(queryClient.getQueryData<Form5>(form5Keys.one(formId))?.field_amendment_number ?? 0) > 0;
      navigate(`/dashboard/${amend ? 'form5AmendCertification' : 'form5Certification'}/${formId}`);
    },
  });

  if (!form || !draft) {
    return (
      <Card>
        {query.error ? (
          <ErrorWithRetry error={query.error} onRetry={query.refetch} />
        ) : (
          <div role="status" aria-label={t('portalData:loading')} style={{ minHeight: 200 }} />
        )}
      </Card>
    );
  }
  const status = str(form.field_form_status);
  const lang = i18n.language;
  const set = (name: string, v: unknown) => {
    setServerErrors((s) => {
      const { [name]: _drop, ...rest } = s;
      return rest;
    });
    setDraft((d) => ({ ...(d ?? {}), [name]: v }));
  };
  const saveError = autosave.state === 'failed' ? autosave.error : null;
  const hasErrors = Object.keys(errors).length > 0;
  const aug = draft.field_aug_form_1_amend_reqd;

  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {t('yearEnd:editTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('yearEnd:editIntro', { season: ltr(one(form, 'field_season')?.title) })}
      </Typography.Paragraph>
      {status !== 'draft' ? (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} message={t('yearEnd:notDraft')} />
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!hasErrors) save.mutate();
        }}
        noValidate
        onBlur={autosave.flush}
      >
        {FIELD_GROUPS.map((group) => (
          <fieldset key={group.key} style={{ border: 'none', padding: 0, margin: '0 0 12px' }}>
            <legend
              style={{
                fontSize: 18,
                fontWeight: 600,
                marginBottom: 8,
                borderBottom: '1px solid rgba(128,128,128,.25)',
                width: '100%',
              }}
            >
              {t(`yearEnd:groups.${group.key}`)}
            </legend>
            <Row gutter={[16, 0]}>
              {group.names.map((name) => {
                const field = FIELD_BY_NAME.get(name)!;
                return (
                  <Col key={name} xs={24} md={12} xl={8}>
                    <FieldRow
                      field={field}
                      lang={lang}
                      value={draft[attr(field)]}
                      computedValue={computed[attr(field)]}
                      error={errors[attr(field)] ?? serverErrors[attr(field)]}
                      onChange={(v) => set(attr(field), v)}
                    />
                  </Col>
                );
              })}
            </Row>
          </fieldset>
        ))}
        <fieldset
          style={{ border: '1px solid rgba(128,128,128,.35)', borderRadius: 8, padding: 16, margin: '8px 0 16px' }}
        >
          <legend style={{ fontSize: 16, fontWeight: 600, padding: '0 6px' }}>{t('yearEnd:aug.question')}</legend>
          <Typography.Paragraph>{t('yearEnd:aug.explanation')}</Typography.Paragraph>
          <AugustComparison form={form} differences={differences} lang={lang} />
          <Radio.Group
            value={aug === true ? 'yes' : aug === false ? 'no' : undefined}
            onChange={(e) => set('field_aug_form_1_amend_reqd', e.target.value === 'yes')}
            optionType="button"
            buttonStyle="solid"
            options={[
              { value: 'yes', label: t('yearEnd:aug.yes') },
              { value: 'no', label: t('yearEnd:aug.no'), disabled: mustAmend },
            ]}
            aria-label={t('yearEnd:aug.question')}
          />
          {aug === true ? (
            <AugustAmendNotice seasonId={one(form, 'field_season')?.id ?? null} />
          ) : (
            <Typography.Paragraph
              type="secondary"
              role={aug === false ? undefined : 'status'}
              style={{ marginTop: 8, marginBottom: 0 }}
            >
              {aug === false ? t('yearEnd:aug.noHelp') : t('yearEnd:aug.choose')}
            </Typography.Paragraph>
          )}
        </fieldset>
        <Form5Problems problems={problems} type="info" />
        {saveError instanceof ApiError && (saveError.status === 409 || saveError.status === 422) ? (
          <WriteErrorAlert
            error={saveError}
            title={saveError.status === 409 ? t('yearEnd:conflict') : t('yearEnd:invalid')}
            action={
              saveError.status === 409 ? (
                <Button
                  onClick={async () => {
                    autosave.discard();
                    const fresh = await query.refetch();
                    if (fresh.data) setDraft(draftOf(fresh.data));
                    save.reset();
                  }}
                >
                  {t('yearEnd:reload')}
                </Button>
              ) : undefined
            }
          />
        ) : null}
        <AutosaveNotices autosave={autosave} />
        <DraftActions autosave={autosave}>
          <Flex gap={8} wrap justify="flex-end">
            <Space wrap>
              <Button onClick={() => navigate('/dashboard/year-end')}>{t('portalData:cancel')}</Button>
              <SaveDraftButton autosave={autosave} disabled={hasErrors || status !== 'draft'} />
              <Button
                type="primary"
                htmlType="submit"
                icon={<SaveOutlined />}
                loading={save.isPending}
                disabled={hasErrors || status !== 'draft'}
              >
                {t('yearEnd:saveAndContinue')}
              </Button>
            </Space>
          </Flex>
          {hasErrors ? (
            <Typography.Paragraph type="danger" style={{ textAlign: 'end', marginTop: 8, marginBottom: 0 }}>
              {t('yearEnd:fixErrors')}
            </Typography.Paragraph>
          ) : null}
        </DraftActions>
      </form>
    </Card>
  );
}

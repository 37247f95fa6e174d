import {
  ArrowLeftOutlined,
  ArrowRightOutlined,
  DownloadOutlined,
  EditOutlined,
  LeftOutlined,
  ReloadOutlined,
  RightOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { languageInfo } from '../../../lib/i18n/languages';
import { Alert, Button, Card, Input, Modal, Result, Space, Typography } from 'antd';
import { crossFieldErrors, FORM_FIELDS, previousPeriodMonth, validateFormAttributes } from '@pecan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { AutosaveNotices, DraftActions, SaveDraftButton } from '../../../components/autosave/autosave-bar';
import { unsavedCopyKey, sameValues } from '../../../components/autosave/unsaved-copy';
import { useAutosave } from '../../../components/autosave/use-autosave';
import { FilingPage } from '../../../components/filing-page';
import { ErrorWithRetry, errorText, QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { attr, fileName, fileUrl, one } from '../../../lib/portal/entities';
import { currentVersionOf, numberOfBundle, type MonthlyBundle, type MonthlyForm } from '../../../lib/portal/packages';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session/use-session';
import { amendForm, formKeys, PDF_FIELD, ROWS_OF, updateForm } from '../api/forms-api';
import {
  changedAttributes,
  currentVersionId,
  enteredValues,
  isCurrentVersion,
  liveComputed,
  rowsOf,
  serverComputed,
} from '../api/form-model';
import { useForm, useNextPackage, useVarieties } from '../hooks/use-forms';
import { useFormBundle } from '../hooks/use-form-bundle';
import { useForm1Context } from '../hooks/use-form1-months';
import { fieldErrorText, fieldMessage } from '../../../components/field-text';
import { FormFields } from './form-fields';
import { FormHeader } from './form-header';
import { RowsTable } from './rows-table';
import { SpreadsheetImport } from './spreadsheet-import';
import { StaleFormAlert } from './stale-months';

/** 'Next package': the current version of the same form in the package that follows in the list. */
function NextPackageButton({ bundle, form }: { bundle: MonthlyBundle; form: MonthlyForm }) {
  const { t, i18n } = useTranslation('filing');
  const rtl = languageInfo(i18n.language).dir === 'rtl';
  const navigate = useNavigate();
  const { profile } = useSession();
  const next = useNextPackage(profile.handlerUid, attr(one(form, 'field_reporting_period'), 'field_due_date'));
  const n = numberOfBundle(bundle)!;
  const target = next.data ? currentVersionOf(next.data, n) : null;
  return (
    <Button
      icon={rtl ? <ArrowLeftOutlined /> : <ArrowRightOutlined />}
      disabled={!target}
      loading={next.isLoading}
      onClick={() => target && navigate(`/dashboard/forms/${bundle}/${target.id}`)}
    >
      {t('forms.nextPackage')}
    </Button>
  );
}

function AmendButton({ bundle, form }: { bundle: MonthlyBundle; form: MonthlyForm }) {
  const { t } = useTranslation('filing');
  const navigate = useNavigate();
  const client = useQueryClient();
  // ?amend=1 opens the amendment at once: form 5's "the August form 1 must be amended" leads here.
  const [params] = useSearchParams();
  const [open, setOpen] = useState(params.get('amend') === '1');
  const [reason, setReason] = useState('');
  const amend = useMutation({
    mutationFn: () => amendForm(bundle, form.id, one(form, 'field_reporting_forms_package')!.id, reason.trim()),
    onSuccess: async (newId) => {
      await client.invalidateQueries({ queryKey: queryKeys.packages });
      await client.invalidateQueries({ queryKey: queryKeys.forms });
      setOpen(false);
      navigate(`/dashboard/formAmendCertification/${newId}`);
    },
  });
  return (
    <>
      <Button type="primary" icon={<EditOutlined />} onClick={() => setOpen(true)}>
        {t('forms.amend')}
      </Button>
      <Modal
        open={open}
        title={t('forms.amendTitle')}
        okText={t('forms.createAmendment')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: !reason.trim() }}
        confirmLoading={amend.isPending}
        onOk={() => amend.mutate()}
        onCancel={() => setOpen(false)}
      >
        <Typography.Paragraph>{t('forms.amendText')}</Typography.Paragraph>
        <label htmlFor="amend-reason" style={{ display: 'block', marginBottom: 4 }}>
          {t('forms.amendmentReason')}
        </label>
        <Input.TextArea
          id="amend-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={255}
          rows={3}
        />
        {amend.error ? (
          <Alert
            style={{ marginTop: 12 }}
            type="error"
            showIcon
            message={t('common.writeError')}
            description={errorText(amend.error)}
          />
        ) : null}
      </Modal>
    </>
  );
}

export function FormEditor({
  bundle,
  form,
  amendMode,
}: {
  bundle: MonthlyBundle;
  form: MonthlyForm;
  amendMode?: boolean;
}) {
  const { t, i18n } = useTranslation('filing');
  const rtl = languageInfo(i18n.language).dir === 'rtl';
  const navigate = useNavigate();
  const client = useQueryClient();
  const varieties = useVarieties();
  const original = useMemo(() => enteredValues(bundle, form), [bundle, form]);
  const [values, setValues] = useState(original);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const changedStamp = attr(form, 'changed');
  // What the last save sent and the `changed` it got back: the next save's base and guard.
  const sent = useRef(original);
  const changedRef = useRef(changedStamp);
  // A reloaded form (another id, or a newer `changed`) starts the editor afresh, unless typing went on meanwhile.
  useEffect(() => {
    changedRef.current = changedStamp;
    setValues((typed) => (sameValues(typed, sent.current) ? original : typed));
    sent.current = original;
    setServerErrors({});
    setConflict(false);
  }, [form.id, changedStamp]); // eslint-disable-line react-hooks/exhaustive-deps

  const status = attr(form, 'field_form_status');
  const current = isCurrentVersion(bundle, form);
  const editable = status === 'draft' && current;
  const rows = rowsOf(bundle, form);
  const fields = FORM_FIELDS[bundle];

  // Values the portal would refuse (each field's own check): not sent until corrected.
  const validation = useMemo(() => {
    if (!editable) return {} as Record<string, string>;
    const errors = validateFormAttributes(bundle, values);
    return Object.fromEntries(
      errors.map((e) => [
        e.field,
        fieldErrorText(
          t,
          fields.find((f) => `field_${f.name}` === e.field),
          e,
        ),
      ]),
    );
  }, [bundle, values, editable, t, fields]);
  // The rules between fields that certification checks, run live: saved as a draft, but named before certifying.
  const crossField = useMemo(() => {
    if (!editable) return {} as Record<string, string>;
    return Object.fromEntries(crossFieldErrors(bundle, values).map((e) => [e.field, fieldMessage(t, fields, e)]));
  }, [bundle, values, editable, t, fields]);
  const errors = { ...crossField, ...serverErrors, ...validation };
  const { profile } = useSession();
  const periodMonth = attr(one(form, 'field_reporting_period'), 'field_period_month');
  const form1Context = useForm1Context(profile.handlerUid, periodMonth, editable && bundle === 'apc_form_1');
  const computed = editable
    ? liveComputed(bundle, form, values, rows, form1Context.data?.figures)
    : serverComputed(bundle, form);

  const saveDraft = async (typed: Record<string, unknown>) => {
    try {
      changedRef.current = await updateForm(
        bundle,
        form.id,
        changedAttributes(sent.current, typed),
        changedRef.current,
      );
      sent.current = typed;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setConflict(true);
      if (error instanceof ApiError && error.status === 422) {
        const byField = fieldErrors(error);
        setServerErrors(
          Object.fromEntries(
            Object.entries(byField).map(([attr, msgs]) => [
              attr,
              fieldMessage(t, fields, { field: attr, message: msgs[0] }),
            ]),
          ),
        );
      }
      throw error;
    }
    await client.invalidateQueries({ queryKey: queryKeys.packages });
    await client.invalidateQueries({ queryKey: formKeys.one(bundle, form.id) });
  };
  const autosave = useAutosave({
    storageKey: profile.username ? unsavedCopyKey(profile.username, `${bundle}:${form.id}`) : null,
    values,
    saved: original,
    enabled: editable && !conflict,
    valid: Object.keys(validation).length === 0,
    save: saveDraft,
    restore: setValues,
  });
  const toCertification = useMutation({
    mutationFn: async () => {
      if (!(await autosave.saveNow())) throw autosave.error ?? new ApiError(0);
    },
    onSuccess: () => navigate(`/dashboard/formCertification/${form.id}`),
  });
  useFocusFromHash(form.id);

  const onChange = (attribute: string, value: unknown) => {
    setServerErrors((e) => {
      if (!(attribute in e)) return e;
      const { [attribute]: _, ...rest } = e;
      return rest;
    });
    // "No change since last month" means last month's stocks again: shown as the server will store them.
    const carried =
      attribute === 'field_no_change_flag' && value === true && periodMonth
        ? form1Context.data?.stocks.get(previousPeriodMonth(periodMonth))
        : undefined;
    const stocks = carried
      ? Object.fromEntries(Object.entries(carried).map(([name, lb]) => [`field_${name}`, lb]))
      : {};
    setValues((v) => ({ ...v, [attribute]: value, ...stocks }));
  };

  const pdf = one(form, PDF_FIELD[bundle]);
  const pdfUrl = fileUrl(pdf);
  const currentId = currentVersionId(bundle, form);
  const hasErrors = Object.keys(validation).length > 0;
  const mustFix = hasErrors || Object.keys(crossField).length > 0;
  const rowsInfo = ROWS_OF[bundle];

  const reload = async () => {
    autosave.discard();
    setConflict(false);
    await client.invalidateQueries({ queryKey: formKeys.one(bundle, form.id) });
  };

  return (
    <Card>
      <FormHeader bundle={bundle} form={form} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Link to="/dashboard/forms">
          <Button icon={rtl ? <RightOutlined /> : <LeftOutlined />}>{t('forms.backToPackages')}</Button>
        </Link>
        <NextPackageButton bundle={bundle} form={form} />
        {status === 'certified' && current ? <AmendButton bundle={bundle} form={form} /> : null}
        {editable ? <SpreadsheetImport bundle={bundle} form={form} /> : null}
        {pdfUrl ? (
          <a href={pdfUrl} download={fileName(pdf)} className="ant-btn ant-btn-default">
            <DownloadOutlined aria-hidden="true" /> {t('forms.downloadPdf')}
          </a>
        ) : null}
      </Space>
      {amendMode && editable ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('forms.amendingTitle')}
          description={t('forms.amendingText')}
        />
      ) : null}
      {!current && currentId ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={t('forms.notCurrent')}
          action={
            <Link to={`/dashboard/forms/${bundle}/${currentId}`}>
              <Button size="small">{t('forms.openCurrent')}</Button>
            </Link>
          }
        />
      ) : null}
      {bundle === 'apc_form_1' && status === 'certified' && current ? (
        <StaleFormAlert handlerId={profile.handlerUid} formId={form.id} month={periodMonth} />
      ) : null}
      {editable ? <Typography.Paragraph type="secondary">{t('forms.editIntro')}</Typography.Paragraph> : null}
      <div onBlur={editable ? autosave.flush : undefined}>
        <FormFields
          fields={fields}
          values={values}
          computed={computed}
          errors={errors}
          onChange={onChange}
          readOnly={!editable}
          varieties={varieties.data ?? []}
          rowsSection={
            rowsInfo ? (
              <RowsTable
                rowBundle={rowsInfo.bundle}
                formBundle={bundle}
                formId={form.id}
                rows={rows}
                readOnly={!editable}
                varieties={varieties.data ?? []}
                onChanged={() => client.invalidateQueries({ queryKey: formKeys.one(bundle, form.id) })}
              />
            ) : null
          }
        />
      </div>
      {conflict ? (
        <Alert
          type="warning"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          message={t('forms.conflictTitle')}
          description={t('forms.conflictText')}
          action={
            <Button icon={<ReloadOutlined />} onClick={reload}>
              {t('forms.reload')}
            </Button>
          }
        />
      ) : null}
      {editable ? <AutosaveNotices autosave={autosave} /> : null}
      {editable ? (
        <DraftActions autosave={autosave}>
          <Space wrap>
            <Button
              type="primary"
              size="large"
              icon={<SafetyCertificateOutlined />}
              loading={toCertification.isPending}
              disabled={mustFix}
              onClick={() => toCertification.mutate()}
            >
              {t('forms.saveAndCertify')}
            </Button>
            <SaveDraftButton autosave={autosave} disabled={hasErrors} />
            {mustFix ? <Typography.Text type="danger">{t('forms.fixErrors')}</Typography.Text> : null}
          </Space>
        </DraftActions>
      ) : null}
    </Card>
  );
}

/** /…/{formId}#f-{field}: the field a message named gets the focus, in view (a certification problem's link). */
function useFocusFromHash(formId: string) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash.startsWith('#f-')) return;
    const timer = window.setTimeout(() => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      const focusable = target?.matches('input, textarea, button, [tabindex]')
        ? target
        : target?.querySelector<HTMLElement>('input, textarea, button');
      target?.scrollIntoView({ block: 'center' });
      (focusable ?? target)?.focus({ preventScroll: true });
    }, 50);
    return () => window.clearTimeout(timer);
  }, [hash, formId]);
}

function FormLoader({ bundle, formId, amendMode }: { bundle: MonthlyBundle; formId: string; amendMode?: boolean }) {
  const query = useForm(bundle, formId);
  const { t } = useTranslation('filing');
  useDocumentTitle(`${t('forms.formN', { n: bundle.slice(-1) })}`);
  return (
    <QueryState query={query} rows={10}>
      {(form) => <FormEditor bundle={bundle} form={form} amendMode={amendMode} />}
    </QueryState>
  );
}

const isMonthlyBundle = (b: string | undefined): b is MonthlyBundle =>
  b === 'apc_form_1' || b === 'apc_form_2' || b === 'apc_form_3';

/** /dashboard/forms/{bundle}/{formId} */
export default function FormPage() {
  const { bundle, formId } = useParams();
  const { t } = useTranslation('filing');
  return (
    <FilingPage>
      {isMonthlyBundle(bundle) && formId ? (
        <FormLoader key={formId} bundle={bundle} formId={formId} />
      ) : (
        <Result status="404" title={t('forms.unknownForm')} />
      )}
    </FilingPage>
  );
}

function AmendLoader({ formId }: { formId: string }) {
  const located = useFormBundle(formId);
  if (located.error) return <ErrorWithRetry error={located.error} onRetry={located.refetch} />;
  if (!located.data) return <QueryState query={located}>{() => null}</QueryState>;
  return <FormLoader key={formId} bundle={located.data} formId={formId} amendMode />;
}

/** /dashboard/formAmendCertification/{newFormId}: the edit page of an amendment, leading to its certification. */
export function AmendFormPage() {
  const { formId } = useParams();
  return <FilingPage>{formId ? <AmendLoader formId={formId} /> : null}</FilingPage>;
}

import { Alert, Button, Card, Result, Space, Typography } from 'antd';
import { crossFieldErrors, FORM_FIELDS } from '@pecan/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { FilingPage } from '../../../components/filing-page';
import { CertificationConfirm, CertificationStep, useCertificationStep } from '../../../components/certifier-fields';
import { ErrorWithRetry, QueryState } from '../../../components/query-state';
import { WriteErrorAlert } from '../../../components/write-error-alert';
import { useDocumentTitle } from '../../../components/use-document-title';
import { ApiError } from '../../../lib/http/errors';
import { attr } from '../../../lib/portal/entities';
import { rememberCertifiedForm } from '../../../lib/portal/handler';
import type { MonthlyBundle, MonthlyForm } from '../../../lib/portal/packages';
import { queryKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session/use-session';
import { certifyForm, ROWS_OF } from '../api/forms-api';
import { rowsOf, serverComputed, enteredValues } from '../api/form-model';
import { useForm } from '../hooks/use-forms';
import { useFormBundle } from '../hooks/use-form-bundle';
import { fieldMessage } from '../../../components/field-text';
import { FormFields } from './form-fields';
import { FormHeader } from './form-header';
import { RowsTable } from './rows-table';

function Certification({ bundle, form }: { bundle: MonthlyBundle; form: MonthlyForm }) {
  const { t } = useTranslation('filing');
  const navigate = useNavigate();
  const client = useQueryClient();
  const { profile } = useSession();
  const { step, ready, name, title } = useCertificationStep();
  const [confirming, setConfirming] = useState(false);

  const certify = useMutation({
    mutationFn: () => certifyForm(bundle, form.id, name.trim(), title.trim()),
    onSuccess: async () => {
      rememberCertifiedForm(form.id);
      setConfirming(false);
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.packages }),
        client.invalidateQueries({ queryKey: queryKeys.forms }),
        client.invalidateQueries({ queryKey: queryKeys.invoices }),
      ]);
      navigate('/dashboard');
    },
    onError: () => setConfirming(false),
  });

  const status = attr(form, 'field_form_status');
  // The rules between fields, checked before the press: certification never brings the first news of a problem.
  const known = status === 'draft' ? crossFieldErrors(bundle, enteredValues(bundle, form)) : [];
  const toField = (field: string) => `/dashboard/forms/${bundle}/${form.id}#f-${field.slice('field_'.length)}`;
  const rowsInfo = ROWS_OF[bundle];
  const n = bundle.slice(-1);
  // Each refusal names its field by label, in the user's language, and leads to it on the edit page.
  const certificationErrors =
    certify.error instanceof ApiError && certify.error.status === 422
      ? certify.error.errors.map((e, i) => {
          const field = e.source?.pointer?.split('/').filter(Boolean).pop() ?? '';
          const text = fieldMessage(t, FORM_FIELDS[bundle], {
            field: field.startsWith('field_') ? field : '',
            message: e.detail ?? e.title ?? '',
          });
          return field.startsWith('field_') ? (
            <Link key={i} to={toField(field)}>
              {text}
            </Link>
          ) : (
            text
          );
        })
      : [];

  return (
    <Card>
      <FormHeader bundle={bundle} form={form} heading={t('certify.heading', { form: t('forms.formN', { n }) })} />
      {status !== 'draft' ? (
        <Result
          status="success"
          title={t('certify.already')}
          extra={
            <Link to={`/dashboard/forms/${bundle}/${form.id}`}>
              <Button>{t('certify.openForm')}</Button>
            </Link>
          }
        />
      ) : null}
      <FormFields
        fields={FORM_FIELDS[bundle]}
        values={enteredValues(bundle, form)}
        computed={serverComputed(bundle, form)}
        errors={{}}
        readOnly
        rowsSection={
          rowsInfo ? (
            <RowsTable
              rowBundle={rowsInfo.bundle}
              formBundle={bundle}
              formId={form.id}
              rows={rowsOf(bundle, form)}
              readOnly
              varieties={[]}
              onChanged={async () => undefined}
            />
          ) : null
        }
      />
      {status === 'draft' ? (
        <div style={{ marginTop: 8 }}>
          <CertificationStep handler={profile.handlerName ?? ''} {...step} />
          {known.length ? (
            <Alert
              type="warning"
              showIcon
              role="alert"
              style={{ marginBottom: 16 }}
              message={t('certify.fixFirst')}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                  {known.map((e) => (
                    <li key={e.field}>
                      <Link to={toField(e.field)}>{fieldMessage(t, FORM_FIELDS[bundle], e)}</Link>
                    </li>
                  ))}
                </ul>
              }
            />
          ) : null}
          {certify.error ? (
            <WriteErrorAlert error={certify.error} title={t('common.writeError')} problems={certificationErrors} />
          ) : null}
          <Space wrap>
            <Button
              type="primary"
              size="large"
              disabled={!ready || known.length > 0}
              onClick={() => setConfirming(true)}
            >
              {t('certify.certify')}
            </Button>
            <Link to={`/dashboard/forms/${bundle}/${form.id}`}>
              <Button size="large">{t('certify.backToEdit')}</Button>
            </Link>
          </Space>
          <CertificationConfirm
            open={confirming}
            title={t('certify.confirmTitle')}
            okText={t('certify.confirm')}
            pending={certify.isPending}
            onConfirm={() => certify.mutate()}
            onCancel={() => setConfirming(false)}
          >
            <Typography.Paragraph>
              {t('certify.confirmText', { form: t('forms.formN', { n }), name: name.trim() })}
            </Typography.Paragraph>
          </CertificationConfirm>
        </div>
      ) : null}
    </Card>
  );
}

function CertificationLoader({ formId }: { formId: string }) {
  const { t } = useTranslation('filing');
  useDocumentTitle(t('certify.title'));
  const located = useFormBundle(formId);
  const form = useForm(located.data ?? null, formId);
  if (located.error) return <ErrorWithRetry error={located.error} onRetry={located.refetch} />;
  if (!located.data) return <QueryState query={located}>{() => null}</QueryState>;
  return (
    <QueryState query={form} rows={10}>
      {(f) => <Certification bundle={located.data!} form={f} />}
    </QueryState>
  );
}

/** /dashboard/formCertification/{formId} */
export default function CertificationPage() {
  const { formId } = useParams();
  return <FilingPage>{formId ? <CertificationLoader key={formId} formId={formId} /> : null}</FilingPage>;
}

import { EditOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Flex, Input, Skeleton, Tag, Typography } from 'antd';
import { FORM_5_FIELDS } from '@pecan/contract';
import { useId, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CertificationConfirm, CertificationStep, useCertificationStep } from '../../../components/certifier-fields';
import { AugustAmendNotice } from './august-amend-notice';
import { ErrorWithRetry } from '../../../components/query-state';
import { WriteErrorAlert } from '../../../components/write-error-alert';
import { Form5Problems } from './form5-problems';
import { useDocumentTitle } from '../../../components/use-document-title';
import { ApiError } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate, formatMoney, formatNumber } from '../../../lib/i18n/format';
import { bool, one } from '../../../lib/portal/entities';
import { ltr, str } from '../../../lib/portal/text';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { sessionStore } from '../../../lib/session/session-store';
import { useSession } from '../../../lib/session/use-session';
import { form5Keys, form5Query, patchForm5 } from '../api/form5-api';
import { AUGUST_FIELDS, FIELD_GROUPS, certificationProblems, draftOf } from './form5-fields';

/** The certification of a year-end form (or of its amendment): statement, certifier, a confirm step. */
export default function Form5CertificationPage({ amendment = false }: { amendment?: boolean }) {
  const { formId = '' } = useParams();
  const { t, i18n } = useFeatureTranslation(['yearEnd', 'portalData']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const reasonId = useId();
  useDocumentTitle(amendment ? t('yearEnd:cert.amendTitle') : t('yearEnd:cert.title'));
  const query = useQuery(form5Query(formId));
  const certification = useCertificationStep();
  const { name, title } = certification;
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);

  const certify = useMutation({
    mutationFn: async () => {
      const form = query.data!;
      const attrs: Record<string, unknown> = {
        field_certified: true,
        field_certification_name: name.trim(),
        field_certification_title: title.trim() || null,
      };
      if (amendment && reason.trim()) attrs.field_amendment_reason = reason.trim();
      return patchForm5(formId, attrs, form.changed);
    },
    onSuccess: (saved) => {
      sessionStore.setItem(STORAGE_KEYS.newYearEndFormCertification, formId);
      sessionStore.setItem(STORAGE_KEYS.augForm1AmendReqd, String(bool(saved, 'field_aug_form_1_amend_reqd')));
      void queryClient.invalidateQueries({ queryKey: form5Keys.lists });
      queryClient.removeQueries({ queryKey: form5Keys.one(formId) });
      navigate('/dashboard');
    },
    onSettled: () => setConfirming(false),
  });

  const form = query.data;
  const heading = amendment ? t('yearEnd:cert.amendTitle') : t('yearEnd:cert.title');
  if (!form) {
    return (
      <Card>
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          {heading}
        </Typography.Title>
        {query.error ? <ErrorWithRetry error={query.error} onRetry={query.refetch} /> : <Skeleton active />}
      </Card>
    );
  }
  const lang = i18n.language;
  const status = str(form.field_form_status);
  const problems = certificationProblems(draftOf(form), form);
  const season = ltr(one(form, 'field_season')?.title);
  // Figures and dates as forms 1 to 3 show them: the user's language's separators and date words.
  const summary = FORM_5_FIELDS.map((f) => {
    // The names come from the contract's field list, not the generated types: read as plain keys.
    const v = (form as Record<string, unknown>)[`field_${f.name}`];
    const missing = v === null || v === undefined || v === '';
    let shown: string;
    if (f.kind === 'bool')
      shown = v === true ? t('yearEnd:aug.yes') : v === false ? t('yearEnd:aug.no') : t('yearEnd:aug.unanswered');
    else if (missing) shown = '—';
    else if (f.kind === 'money') shown = formatMoney(str(v), lang);
    // A price per pound keeps its four places: "$2.3475".
    else if (f.kind === 'price')
      shown = formatNumber(str(v), lang, {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 4,
        maximumFractionDigits: 4,
      });
    else if (f.kind === 'date') shown = formatDate(str(v), lang);
    else if (f.kind === 'pounds')
      shown = `${formatNumber(v as number, lang)} ${f.unit ? t(`yearEnd:units.${f.unit}`, { defaultValue: f.unit }) : ''}`;
    else shown = str(v);
    return { key: f.name, label: t(`yearEnd:fields.${f.name}`), children: shown };
  });
  // Form 5 reports the inventory held on the season's last day (31 August): it is certified from that day on, by the
  // server's calendar (UTC), so the button and the server agree in every time zone.
  const seasonEnd = str(one(form, 'field_season')?.field_season_end_date).slice(0, 10);
  const tooEarly = status === 'draft' && seasonEnd !== '' && new Date().toISOString().slice(0, 10) < seasonEnd;
  const ready = status === 'draft' && !tooEarly && problems.length === 0 && certification.ready;

  return (
    <Card>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={1} style={{ fontSize: 26, margin: 0 }}>
          {heading}
        </Typography.Title>
        <Tag color={status === 'certified' ? 'green' : 'blue'}>
          {t(`portalData:status.${status}`, { defaultValue: status })}
        </Tag>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('yearEnd:cert.intro', { season })}
        {amendment ? ` ${t('yearEnd:cert.amendIntro', { n: form.field_amendment_number })}` : ''}
      </Typography.Paragraph>
      {[...FIELD_GROUPS, { key: 'aug', names: AUGUST_FIELDS }].map((g) => (
        <Descriptions
          key={g.key}
          size="small"
          bordered
          title={g.key === 'aug' ? undefined : t(`yearEnd:groups.${g.key}`)}
          column={{ xs: 1, md: 2, xl: 3 }}
          items={summary.filter((i) => g.names.includes(i.key))}
          style={{ marginBottom: 16 }}
        />
      ))}
      {status === 'draft' ? (
        <Button
          icon={<EditOutlined />}
          onClick={() => navigate(`/dashboard/year-end/${formId}`)}
          style={{ marginBottom: 16 }}
        >
          {t('yearEnd:cert.editFigures')}
        </Button>
      ) : null}
      {status !== 'draft' ? (
        <Alert type="success" showIcon message={t('yearEnd:cert.already')} style={{ marginBottom: 16 }} />
      ) : null}
      {status === 'draft' ? <Form5Problems problems={problems} type="warning" /> : null}
      {tooEarly ? (
        <Alert
          type="info"
          showIcon
          data-testid="form5-not-yet"
          message={t('yearEnd:cert.notYet', { date: formatDate(seasonEnd, lang, { dateStyle: 'long' }) })}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {status === 'draft' ? (
        <div>
          {bool(form, 'field_aug_form_1_amend_reqd') ? (
            <AugustAmendNotice seasonId={one(form, 'field_season')?.id ?? null} />
          ) : null}
          <CertificationStep handler={profile.handlerName ?? ''} {...certification.step}>
            {amendment ? (
              <Col xs={24}>
                <label htmlFor={reasonId} style={{ display: 'block', marginBottom: 4 }}>
                  {t('yearEnd:cert.reason')}
                </label>
                <Input.TextArea
                  id={reasonId}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  rows={2}
                  maxLength={255}
                  style={{ marginBottom: 12 }}
                />
              </Col>
            ) : null}
          </CertificationStep>
          {certify.error ? (
            <WriteErrorAlert
              error={certify.error}
              title={
                certify.error instanceof ApiError && certify.error.status === 409
                  ? t('yearEnd:conflict')
                  : t('portalData:saveFailed')
              }
              action={
                <Button onClick={() => void query.refetch().then(() => certify.reset())}>{t('yearEnd:reload')}</Button>
              }
            />
          ) : null}
          <Flex justify="flex-end" gap={8} wrap>
            <Button onClick={() => navigate('/dashboard/year-end')}>{t('portalData:cancel')}</Button>
            <Button
              type="primary"
              icon={<SafetyCertificateOutlined />}
              disabled={!ready}
              onClick={() => setConfirming(true)}
            >
              {t('yearEnd:cert.certify')}
            </Button>
          </Flex>
        </div>
      ) : (
        <Button type="primary" onClick={() => navigate('/dashboard/year-end')}>
          {t('yearEnd:cert.backToList')}
        </Button>
      )}
      <CertificationConfirm
        open={confirming}
        title={t('yearEnd:cert.confirmTitle')}
        okText={t('yearEnd:cert.confirmOk')}
        pending={certify.isPending}
        onConfirm={() => certify.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('yearEnd:cert.confirmText', { season, name: name.trim() })}</p>
      </CertificationConfirm>
    </Card>
  );
}

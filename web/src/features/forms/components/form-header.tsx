import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/i18n/format';
import { attr, one, todayIso } from '../../../lib/portal/entities';
import { formDisplayStatus, type MonthlyBundle, type MonthlyForm } from '../../../lib/portal/packages';
import { StatusBadge } from './status-badge';
import { isCurrentVersion } from '../api/form-model';

/** Title, month, due date, status and version of a form. */
export function FormHeader({ bundle, form, heading }: { bundle: MonthlyBundle; form: MonthlyForm; heading?: string }) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  const period = one(form, 'field_reporting_period');
  const month = attr(period, 'field_period_month');
  const due = attr(period, 'field_due_date');
  const amendment = attr(form, 'field_amendment_number') ?? 0;
  const status = formDisplayStatus(form, due, todayIso(), isCurrentVersion(bundle, form));
  const n = bundle.slice(-1);
  const items = [
    {
      key: 'month',
      label: t('forms.month'),
      children: month ? formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' }) : '',
    },
    { key: 'due', label: t('forms.dueDate'), children: formatDate(due, lang) },
    { key: 'status', label: t('forms.status'), children: <StatusBadge status={status} /> },
    {
      key: 'version',
      label: t('forms.version'),
      children: amendment > 0 ? t('forms.amendmentN', { n: amendment }) : t('forms.original'),
    },
  ];
  const reason = attr(form, 'field_amendment_reason');
  if (reason) items.push({ key: 'reason', label: t('forms.amendmentReason'), children: reason });
  const certifiedAt = attr(form, 'field_certification_datetime');
  if (certifiedAt)
    items.push({
      key: 'certified',
      label: t('forms.certifiedBy'),
      children: t('forms.certifiedByText', {
        name: attr(form, 'field_certification_name') ?? '',
        title: attr(form, 'field_certification_title') ?? '',
        date: formatDate(certifiedAt, lang, { dateStyle: 'medium', timeStyle: 'short' }),
      }),
    });
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
        {heading ?? `${t('forms.formN', { n })}: ${t(`forms.title_${n}`)}`}
      </Typography.Title>
      <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }} items={items} style={{ marginBottom: 16 }} />
    </>
  );
}

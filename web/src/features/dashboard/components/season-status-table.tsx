import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StaticTable, type StaticColumn } from '../../../components/static-table';
import { formatDate } from '../../../lib/i18n/format';
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { str } from '../../../lib/portal/entities';
import { bundleOf, currentVersionOf, dueDateOf, FORM_NUMBERS, formDisplayStatus, periodMonthOf, periodOf } from '../../../lib/portal/packages';
import { StatusTag } from './status-tag';

/** The status of forms 1, 2 and 3 of each month of the season. */
export function SeasonStatusTable({ packages, today, justCertified }: { packages: Entity[]; today: string; justCertified: string | null }) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  const columns: StaticColumn<Entity>[] = [
    {
      key: 'month',
      title: t('dashboard.month'),
      render: (pkg) => {
        const month = periodMonthOf(pkg);
        return <strong>{month ? formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' }) : str(periodOf(pkg), 'title')}</strong>;
      },
    },
    { key: 'due', title: t('dashboard.dueDate'), render: (pkg) => formatDate(dueDateOf(pkg), lang) },
    ...FORM_NUMBERS.map((n) => ({
      key: `form${n}`,
      title: t('forms.formN', { n }),
      render: (pkg: Entity) => {
        const form = currentVersionOf(pkg, n);
        const status = formDisplayStatus(form, dueDateOf(pkg), today);
        return form ? (
          <Link to={`/dashboard/forms/${bundleOf(n)}/${form.id}`} aria-label={`${t('forms.formN', { n })}: ${t(`status.${status}`)}`}>
            <StatusTag status={status} justCertified={justCertified === form.id} />
          </Link>
        ) : (
          <StatusTag status="missing" />
        );
      },
    })),
  ];
  return (
    // A plain grid of statuses: no sorting, paging or selection, so not antd's Table (see StaticTable).
    <StaticTable<Entity> rowKey={(pkg) => pkg.id} columns={columns} rows={packages} scrollX={560} label={t('dashboard.seasonStatus')} />
  );
}

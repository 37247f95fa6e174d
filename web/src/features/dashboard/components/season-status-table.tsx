import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useViewport } from '../../../components/use-viewport';
import { StaticTable, type StaticColumn } from '../../../components/static-table';
import { formatDate } from '../../../lib/i18n/format';
import { attr } from '../../../lib/portal/entities';
import {
  bundleOf,
  currentVersionOf,
  dueDateOf,
  FORM_NUMBERS,
  formDisplayStatus,
  type FormNumber,
  periodMonthOf,
  periodOf,
  type FormsPackage,
} from '../../../lib/portal/packages';
import { StatusTag } from './status-tag';

type Props = { packages: FormsPackage[]; today: string; justCertified: string | null };

/**
 * The status of forms 1, 2 and 3 of each month of the season: a table, or in the spec's mobile layout (767 px and
 * narrower) a list with one block a month: the table's five columns need 560 px and scrolled
 * sideways on a phone, hiding the forms' statuses, which are what the card is for.
 */
export function SeasonStatusTable(props: Props) {
  return useViewport().mode === 'mobile' ? <SeasonStatusList {...props} /> : <SeasonStatusGrid {...props} />;
}

/** The link to form n of a package, labelled with its status; a tag alone when the form is not there. */
function FormStatusLink({
  pkg,
  n,
  today,
  justCertified,
  children,
}: {
  pkg: FormsPackage;
  n: FormNumber;
  today: string;
  justCertified: string | null;
  children?: ReactNode;
}) {
  const { t } = useTranslation('filing');
  const form = currentVersionOf(pkg, n);
  const status = formDisplayStatus(form, dueDateOf(pkg), today);
  const tag = <StatusTag status={status} justCertified={!!form && justCertified === form.id} />;
  return form ? (
    <Link
      to={`/dashboard/forms/${bundleOf(n)}/${form.id}`}
      aria-label={`${t('forms.formN', { n })}: ${t(`status.${status}`)}`}
    >
      {children}
      {tag}
    </Link>
  ) : (
    <span>
      {children}
      {tag}
    </span>
  );
}

function monthTitle(pkg: FormsPackage, lang: string): string {
  const month = periodMonthOf(pkg);
  return month
    ? formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' })
    : (attr(periodOf(pkg), 'title') ?? '');
}

function SeasonStatusGrid({ packages, today, justCertified }: Props) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  const columns: StaticColumn<FormsPackage>[] = [
    { key: 'month', title: t('dashboard.month'), render: (pkg) => <strong>{monthTitle(pkg, lang)}</strong> },
    { key: 'due', title: t('dashboard.dueDate'), render: (pkg) => formatDate(dueDateOf(pkg), lang) },
    ...FORM_NUMBERS.map((n) => ({
      key: `form${n}`,
      title: t('forms.formN', { n }),
      render: (pkg: FormsPackage) => <FormStatusLink pkg={pkg} n={n} today={today} justCertified={justCertified} />,
    })),
  ];
  return (
    // A plain grid of statuses: no sorting, paging or selection, so not antd's Table (see StaticTable).
    <StaticTable<FormsPackage>
      rowKey={(pkg) => pkg.id}
      columns={columns}
      rows={packages}
      scrollX={560}
      label={t('dashboard.seasonStatus')}
    />
  );
}

/** The phone layout: per month its name and due date, then its three forms, each named, wrapping as room allows. */
function SeasonStatusList({ packages, today, justCertified }: Props) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  return (
    <ul aria-label={t('dashboard.seasonStatus')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {packages.map((pkg, i) => (
        <li
          key={pkg.id}
          style={{ padding: '12px 0', borderTop: i === 0 ? undefined : '1px solid rgba(5, 5, 5, 0.06)' }}
        >
          <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', columnGap: 12 }}>
            <strong>{monthTitle(pkg, lang)}</strong>
            <Typography.Text type="secondary">
              {t('packages.due', { date: formatDate(dueDateOf(pkg), lang) })}
            </Typography.Text>
          </div>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 8 }}>
            {FORM_NUMBERS.map((n) => (
              <FormStatusLink key={n} pkg={pkg} n={n} today={today} justCertified={justCertified}>
                <span style={{ marginInlineEnd: 4 }}>{t('forms.formN', { n })}</span>
              </FormStatusLink>
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}

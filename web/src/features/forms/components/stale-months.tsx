import { EditOutlined } from '@ant-design/icons';
import { Alert, Button, Space } from 'antd';
// Single modules of the contract, not its index: the dashboard shows this, and the index brings zod and the schemas.
import { periodsOfSeason, previousPeriodMonth, seasonOfPeriod } from '@pecan/contract/calendar/seasons';
import { staleForm1Months, type StaleForm1Month } from '@pecan/contract/compute/form-1-stale';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorText } from '../../../components/query-state';
import { formatDate } from '../../../lib/i18n/format';
import { queryKeys } from '../../../lib/query-keys';
import { amendForm, formKeys } from '../api/forms-api';
import { getCertifiedForm1 } from '../api/form1-months';
import { StaleFigures } from '../../../components/stale-figures';

/**
 * The handler's certified forms 1 from `fromMonth` on whose previous-month or season-to-date figures an amendment
 * of an earlier month made stale (the contract's staleForm1Months, as the submissions board computes it). Read
 * from the August before the season of `fromMonth`: a month's figures depend on the season's earlier months and
 * September's on August of the season before.
 */
export function useStaleForm1(handlerId: string | null, fromMonth: string | null) {
  return useQuery({
    queryKey: formKeys.staleForm1(handlerId ?? '', fromMonth ?? ''),
    queryFn: async ({ signal }) => {
      const months = await getCertifiedForm1(
        handlerId!,
        { from: previousPeriodMonth(periodsOfSeason(seasonOfPeriod(fromMonth!))[0]) },
        signal,
      );
      const packages = new Map(months.map((m) => [m.id, m.packageId]));
      return staleForm1Months(months, fromMonth!).map((s) => ({ ...s, packageId: packages.get(s.id) ?? null }));
    },
    enabled: !!handlerId && !!fromMonth,
    structuralSharing: false,
  });
}

const monthName = (month: string, lang: string) => formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' });

/** One click: starts the amendment of the month's form 1 (which recomputes its figures) and opens it. */
export function StaleAmendButton({ stale }: { stale: StaleForm1Month & { packageId: string | null } }) {
  const { t, i18n } = useTranslation('filing');
  const navigate = useNavigate();
  const client = useQueryClient();
  const amend = useMutation({
    mutationFn: () => amendForm('apc_form_1', stale.id, stale.packageId!, t('stale.reason')),
    onSuccess: async (newId) => {
      await client.invalidateQueries({ queryKey: queryKeys.packages });
      navigate(`/dashboard/formAmendCertification/${newId}`);
    },
  });
  return (
    <Space direction="vertical" size={4}>
      <Button
        type="primary"
        icon={<EditOutlined />}
        loading={amend.isPending}
        disabled={!stale.packageId}
        onClick={() => amend.mutate()}
      >
        {t('stale.amend', { month: monthName(stale.month, i18n.language) })}
      </Button>
      {amend.error ? (
        <Alert type="error" showIcon message={t('common.writeError')} description={errorText(amend.error)} />
      ) : null}
    </Space>
  );
}

/** The dashboard's list of certified months to correct; nothing at all when there are none. */
export function StaleMonthsCard({ handlerId, fromMonth }: { handlerId: string; fromMonth: string | null }) {
  const { t, i18n } = useTranslation('filing');
  const stale = useStaleForm1(handlerId, fromMonth);
  if (!stale.data?.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="stale-months"
      message={t('stale.dashboardTitle')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none' }}>
          {stale.data.map((s) => (
            <li key={s.id} style={{ marginTop: 8 }}>
              <Link
                to={`/dashboard/forms/apc_form_1/${s.id}`}
              >{`${t('forms.formN', { n: 1 })}: ${monthName(s.month, i18n.language)}`}</Link>
              <StaleFigures figures={s.figures} />
              <StaleAmendButton stale={s} />
            </li>
          ))}
        </ul>
      }
    />
  );
}

/** On the page of a certified form 1: what is stale and the one-click amendment, or nothing. */
export function StaleFormAlert({
  handlerId,
  formId,
  month,
}: {
  handlerId: string | null;
  formId: string;
  month: string | null;
}) {
  const { t, i18n } = useTranslation('filing');
  const stale = useStaleForm1(handlerId, month);
  const mine = stale.data?.find((s) => s.id === formId);
  if (!mine || !month) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={t('stale.title')}
      description={
        <Space direction="vertical">
          <span>{t('stale.text', { month: monthName(month, i18n.language) })}</span>
          <StaleFigures figures={mine.figures} />
          <StaleAmendButton stale={mine} />
        </Space>
      }
    />
  );
}

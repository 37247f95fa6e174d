import { FileExcelOutlined } from '@ant-design/icons';
import { Alert, Card, Col, Flex, List, Row, Typography } from 'antd';
import { FileDownload } from '../../../components/file-download';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCachedQuery } from '../../../lib/cache/cached-copy';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { attr, many, one, type AttributeNameOf } from '../../../lib/portal/entities';
import { currentOrNewestSeason, useSeasons } from '../../../lib/portal/seasons';
import { iso, ltr, str } from '../../../lib/portal/text';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { useSession } from '../../../lib/session/use-session';
import {
  analyticsKeys,
  fetchForm1Figures,
  fetchIndustryAnalytics,
  fetchIndustryMonthly,
  fetchOwnAnalytics,
  type AnalyticsWorkbook,
  type Form1Figures,
  type IndustryMonth,
} from '../api/analytics-api';
import { LineChart } from './line-chart';

const METRICS = [
  { key: 'receipts', field: 'field_receipts_total' },
  // Inshell shipments: form 1 keeps inshell and shelled apart (986.177(a)) and has no total adding them.
  { key: 'shipments', field: 'field_shipments_inshell' },
  { key: 'inventory', field: 'field_inventory_inshell' },
] as const;

const INDUSTRY_METRICS = [
  { key: 'receipts', label: 'analytics:industryMetric.receipts', field: 'receipts_improved_native' },
  { key: 'shipments', label: 'analytics:metric.shipments', field: 'shipments_inshell' },
  { key: 'inventory', label: 'analytics:metric.inventory', field: 'inventory_inshell' },
] as const;

/** An industry series over a season's months: a gap where a month is unpublished or its figure withheld. */
export function industrySeries(
  rows: IndustryMonth[] | undefined,
  months: string[],
  field: (typeof INDUSTRY_METRICS)[number]['field'],
): (number | null)[] {
  const byMonth = new Map((rows ?? []).map((r) => [r.month, r[field].value]));
  return months.map((m) => byMonth.get(m) ?? null);
}

/** The months of a season whose published figure is withheld (disclosure control): marked under the chart. */
export function withheldMonths(
  rows: IndustryMonth[] | undefined,
  months: string[],
  field: (typeof INDUSTRY_METRICS)[number]['field'],
): string[] {
  const withheld = new Set((rows ?? []).filter((r) => r.published && r[field].withheld).map((r) => r.month));
  return months.filter((m) => withheld.has(m));
}

/** Twelve months of a season starting in September: "2026-09" ... "2027-08". */
export function seasonMonths(startDate: string): string[] {
  const y = Number(startDate.slice(0, 4));
  const m0 = Number(startDate.slice(5, 7)) || 9;
  return Array.from({ length: 12 }, (_, i) => {
    const m = m0 - 1 + i;
    return `${y + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

export function seriesOf(
  forms: Form1Figures[],
  months: string[],
  field: AttributeNameOf<Form1Figures, number>,
): (number | null)[] {
  const byMonth = new Map<string, number>();
  for (const f of forms) {
    const m = str(one(f, 'field_reporting_period')?.field_period_month);
    const v = attr(f, field);
    if (m && typeof v === 'number') byMonth.set(m, v);
  }
  return months.map((m) => byMonth.get(m) ?? null);
}

function WorkbookList({
  rows,
  lang,
  t,
}: {
  rows: AnalyticsWorkbook[];
  lang: string;
  t: (k: string, o?: Record<string, unknown>) => string;
}) {
  return (
    <List
      dataSource={rows}
      renderItem={(r) => {
        const file = one(r, 'field_industry_analytics_xlsx') ?? one(r, 'field_analytics_xlsx');
        const season = one(r, 'field_season');
        return (
          <List.Item>
            <Flex wrap justify="space-between" align="center" gap={8} style={{ width: '100%' }}>
              <List.Item.Meta
                style={{ flex: '1 1 220px', minWidth: 0 }}
                avatar={<FileExcelOutlined style={{ fontSize: 22, color: '#217346' }} />}
                title={str(r.title)}
                description={[
                  season?.title ? t('analytics:seasonLine', { season: ltr(season.title) }) : '',
                  attr(r, 'field_published_date')
                    ? t('analytics:published', { date: iso(formatDate(str(attr(r, 'field_published_date')), lang)) })
                    : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
              <FileDownload kind="xlsx" file={file} label={str(r.title)} />
            </Flex>
          </List.Item>
        );
      }}
    />
  );
}

export default function AnalyticsPage() {
  const { t, i18n } = useFeatureTranslation(['analytics', 'portalData']);
  useDocumentTitle(t('analytics:title'));
  const lang = i18n.language;
  const { profile } = useSession();
  const handlerId = profile.handlerUid ?? '';
  const seasons = useSeasons();
  const industry = useCachedQuery<AnalyticsWorkbook[]>({
    queryKey: analyticsKeys.industry,
    cache: { specKey: STORAGE_KEYS.industryAnalytics },
    queryFn: async (signal) => {
      const rows = await fetchIndustryAnalytics(signal);
      return rows.sort(
        (a, b) =>
          str(one(b, 'field_season')?.title).localeCompare(str(one(a, 'field_season')?.title)) ||
          str(b.field_published_date).localeCompare(str(a.field_published_date)),
      );
    },
  });
  const own = useCachedQuery<AnalyticsWorkbook[]>({
    queryKey: analyticsKeys.own(handlerId),
    cache: handlerId ? { listKey: 'handler_analytics' } : null,
    enabled: !!handlerId,
    queryFn: async (signal) => {
      const h = await fetchOwnAnalytics(handlerId, signal);
      const list = many(h, 'field_handler_analytics');
      return [...list].sort((a, b) =>
        str(one(b, 'field_season')?.title).localeCompare(str(one(a, 'field_season')?.title)),
      );
    },
  });
  const cur = currentOrNewestSeason(seasons.data);
  const prev =
    cur && seasons.data
      ? seasons.data.filter((s) => str(s.field_season_start_date) < str(cur.field_season_start_date))[0]
      : undefined;
  const seasonIds = [cur?.id, prev?.id].filter(Boolean) as string[];
  const figures = useCachedQuery<Form1Figures[]>({
    queryKey: analyticsKeys.form1Figures(handlerId, seasonIds),
    cache: handlerId && seasonIds.length ? { listKey: `form1_figures:${seasonIds.join(',')}` } : null,
    enabled: !!handlerId && seasonIds.length > 0,
    queryFn: (signal) => fetchForm1Figures(handlerId, seasonIds, signal),
  });

  const industryCur = useCachedQuery<IndustryMonth[]>({
    queryKey: analyticsKeys.industryMonthly(cur?.id),
    cache: cur ? { listKey: `industry_monthly:${cur.id}` } : null,
    enabled: !!cur,
    queryFn: (signal) => fetchIndustryMonthly(cur!.id, signal),
  });
  const industryPrev = useCachedQuery<IndustryMonth[]>({
    queryKey: analyticsKeys.industryMonthly(prev?.id),
    cache: prev ? { listKey: `industry_monthly:${prev.id}` } : null,
    enabled: !!prev,
    queryFn: (signal) => fetchIndustryMonthly(prev!.id, signal),
  });

  const monthsCur = cur ? seasonMonths(str(cur.field_season_start_date)) : [];
  const monthsPrev = prev ? seasonMonths(str(prev.field_season_start_date)) : [];
  const labels = monthsCur.map((m) => formatDate(`${m}-01`, lang, { month: 'short' }));

  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {t('analytics:title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('analytics:intro')}</Typography.Paragraph>

      <section aria-labelledby="industry-charts-heading" style={{ marginBottom: 24 }}>
        <Typography.Title level={2} id="industry-charts-heading" style={{ fontSize: 20 }}>
          {t('analytics:industryChartsTitle')}
        </Typography.Title>
        <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('analytics:industryChartsNote')} />
        <QueryState
          query={{
            ...industryCur,
            error: industryCur.error ?? industryPrev.error ?? seasons.error,
            data: seasons.data ? industryCur.data : undefined,
          }}
          isEmpty={(rows) => !rows.some((r) => r.published)}
          emptyText={t('analytics:noIndustryFigures')}
        >
          {(rows) => (
            <Row gutter={[16, 16]}>
              {INDUSTRY_METRICS.map((m) => (
                <Col key={m.key} xs={24} lg={12} xl={8}>
                  <Card size="small" title={t(m.label)}>
                    <LineChart
                      title={t(m.label)}
                      unit={t('analytics:pounds')}
                      lang={lang}
                      months={labels}
                      series={[
                        {
                          name: t('analytics:thisSeason', { season: ltr(cur?.title) }),
                          values: industrySeries(rows, monthsCur, m.field),
                        },
                        ...(prev
                          ? [
                              {
                                name: t('analytics:lastSeason', { season: ltr(prev.title) }),
                                values: industrySeries(industryPrev.data, monthsPrev, m.field),
                                dashed: true,
                              },
                            ]
                          : []),
                      ]}
                    />
                    {withheldMonths(rows, monthsCur, m.field).length > 0 ? (
                      <Typography.Text type="secondary" data-testid="withheld-months">
                        {t('analytics:withheldMonths', {
                          months: withheldMonths(rows, monthsCur, m.field)
                            .map((mo) => formatDate(`${mo}-01`, lang, { month: 'short' }))
                            .join(', '),
                        })}
                      </Typography.Text>
                    ) : null}
                  </Card>
                </Col>
              ))}
            </Row>
          )}
        </QueryState>
      </section>

      {handlerId ? (
        <section aria-labelledby="charts-heading" style={{ marginBottom: 24 }}>
          <Typography.Title level={2} id="charts-heading" style={{ fontSize: 20 }}>
            {t('analytics:chartsTitle')}
          </Typography.Title>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message={t('analytics:yourCompanyOnly', { handler: profile.handlerName ?? '' })}
          />
          <QueryState
            query={{ ...figures, error: figures.error ?? seasons.error, data: seasons.data ? figures.data : undefined }}
            isEmpty={(rows) => rows.length === 0}
            emptyText={t('analytics:noFigures')}
          >
            {(rows) => (
              <Row gutter={[16, 16]}>
                {METRICS.map((m) => {
                  const thisSeason = rows.filter(
                    (f) => (one(one(f, 'field_reporting_period'), 'field_season')?.id ?? '') === cur?.id,
                  );
                  const lastSeason = rows.filter(
                    (f) => (one(one(f, 'field_reporting_period'), 'field_season')?.id ?? '') === prev?.id,
                  );
                  return (
                    <Col key={m.key} xs={24} lg={12} xl={8}>
                      <Card size="small" title={t(`analytics:metric.${m.key}`)}>
                        <LineChart
                          title={t(`analytics:metric.${m.key}`)}
                          unit={t('analytics:pounds')}
                          lang={lang}
                          months={labels}
                          series={[
                            {
                              name: t('analytics:thisSeason', { season: ltr(cur?.title) }),
                              values: seriesOf(thisSeason, monthsCur, m.field),
                            },
                            ...(prev
                              ? [
                                  {
                                    name: t('analytics:lastSeason', { season: ltr(prev.title) }),
                                    values: seriesOf(lastSeason, monthsPrev, m.field),
                                    dashed: true,
                                  },
                                ]
                              : []),
                          ]}
                        />
                      </Card>
                    </Col>
                  );
                })}
              </Row>
            )}
          </QueryState>
        </section>
      ) : null}

      <Row gutter={[24, 24]}>
        <Col xs={24} xl={handlerId ? 12 : 24}>
          <section aria-labelledby="industry-heading">
            <Typography.Title level={2} id="industry-heading" style={{ fontSize: 20 }}>
              {t('analytics:industryTitle')}
            </Typography.Title>
            <QueryState query={industry} isEmpty={(r) => r.length === 0} emptyText={t('analytics:emptyIndustry')}>
              {(rows) => <WorkbookList rows={rows} lang={lang} t={t} />}
            </QueryState>
          </section>
        </Col>
        {handlerId ? (
          <Col xs={24} xl={12}>
            <section aria-labelledby="own-heading">
              <Typography.Title level={2} id="own-heading" style={{ fontSize: 20 }}>
                {t('analytics:ownTitle')}
              </Typography.Title>
              <QueryState query={own} isEmpty={(r) => r.length === 0} emptyText={t('analytics:emptyOwn')}>
                {(rows) => <WorkbookList rows={rows} lang={lang} t={t} />}
              </QueryState>
            </section>
          </Col>
        ) : null}
      </Row>
    </Card>
  );
}

import { FileTextOutlined } from '@ant-design/icons';
import { Card, Flex, List, Select, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { FileDownload } from '../../../components/file-download';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCachedQuery } from '../../../lib/cache/cached-copy';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { one } from '../../../lib/portal/entities';
import { currentOrNewestSeason, useSeasons } from '../../../lib/portal/seasons';
import { iso, ltr, str } from '../../../lib/portal/text';
import {
  fetchAnnualReports,
  fetchMonthlyReports,
  reportKeys,
  type AnnualReport,
  type MonthlyReport,
} from '../api/reports-api';

function ReportList<R extends MonthlyReport | AnnualReport>({
  rows,
  subtitle,
}: {
  rows: R[];
  subtitle: (r: R) => string;
}) {
  return (
    <List
      itemLayout="horizontal"
      dataSource={rows}
      renderItem={(r) => (
        <List.Item>
          <Flex wrap justify="space-between" align="center" gap={8} style={{ width: '100%' }}>
            <List.Item.Meta
              style={{ flex: '1 1 220px', minWidth: 0 }}
              avatar={<FileTextOutlined style={{ fontSize: 22, color: '#a0612a' }} />}
              title={str(r.title)}
              description={subtitle(r)}
            />
            <FileDownload file={r.field_position_report_pdf} label={str(r.title)} />
          </Flex>
        </List.Item>
      )}
    />
  );
}

export default function ReportsPage() {
  const { t, i18n } = useFeatureTranslation(['reports', 'portalData']);
  useDocumentTitle(t('reports:title'));
  const lang = i18n.language;
  const seasons = useSeasons();
  const current = currentOrNewestSeason(seasons.data);
  const [seasonId, setSeasonId] = useState<string | null>(null);
  const sid = seasonId ?? current?.id ?? '';
  const monthly = useCachedQuery<MonthlyReport[]>({
    queryKey: reportKeys.monthly(sid),
    cache: sid ? { listKey: `monthly_position_reports:${sid}` } : null,
    enabled: !!sid,
    queryFn: (signal) => fetchMonthlyReports(sid, signal),
  });
  const annual = useCachedQuery<AnnualReport[]>({
    queryKey: reportKeys.annual,
    cache: { listKey: 'annual_position_reports' },
    queryFn: (signal) => fetchAnnualReports(signal),
  });
  const month = (r: MonthlyReport) => {
    const p = one(r, 'field_reporting_period');
    const m = str(p?.field_period_month);
    return [
      m ? t('reports:month', { month: formatDate(`${m}-01`, lang, { month: 'long', year: 'numeric' }) }) : '',
      p?.field_due_date ? t('reports:formsDue', { date: iso(formatDate(str(p.field_due_date), lang)) }) : '',
      r.created ? t('reports:published', { date: iso(formatDate(str(r.created), lang)) }) : '',
    ]
      .filter(Boolean)
      .join(' · ');
  };
  const seasonLine = (r: AnnualReport) => {
    const s = one(r, 'field_season');
    return [
      s ? t('reports:seasonLine', { season: ltr(s.title) }) : '',
      r.created ? t('reports:published', { date: iso(formatDate(str(r.created), lang)) }) : '',
    ]
      .filter(Boolean)
      .join(' · ');
  };
  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {t('reports:title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('reports:intro')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
        {t('reports:withheldNote')}
      </Typography.Paragraph>
      <Tabs
        items={[
          {
            key: 'monthly',
            label: t('reports:monthly'),
            children: (
              <>
                <Flex style={{ marginBottom: 12 }}>
                  <Space>
                    <label htmlFor="reports-season">{t('reports:season')}</label>
                    <Select
                      id="reports-season"
                      style={{ minWidth: 140 }}
                      value={sid || undefined}
                      onChange={setSeasonId}
                      loading={seasons.isPending}
                      options={(seasons.data ?? []).map((s) => ({ value: s.id, label: str(s.title) }))}
                    />
                  </Space>
                </Flex>
                <QueryState query={monthly} isEmpty={(r) => r.length === 0} emptyText={t('reports:emptyMonthly')}>
                  {(rows) => <ReportList rows={rows} subtitle={month} />}
                </QueryState>
              </>
            ),
          },
          {
            key: 'annual',
            label: t('reports:annual'),
            children: (
              <QueryState query={annual} isEmpty={(r) => r.length === 0} emptyText={t('reports:emptyAnnual')}>
                {(rows) => <ReportList rows={rows} subtitle={seasonLine} />}
              </QueryState>
            ),
          },
        ]}
      />
    </Card>
  );
}

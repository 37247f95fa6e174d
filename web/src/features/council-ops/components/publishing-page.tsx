import {
  CloudUploadOutlined,
  DatabaseOutlined,
  DownloadOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  FileAddOutlined,
  GlobalOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Modal, Popconfirm, Select, Skeleton, Space, Table, Tabs, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import {
  councilOpsKeys,
  generateReport,
  publishMonthlyReport,
  reportListQuery,
  reportSourcesQuery,
  type GeneratedDoc,
  type ReportSources,
} from '../api/council-api';
import type { PeriodMonthInput, SeasonIdInput } from '@pecan/contract/api/council-requests';
import {
  dateTime,
  failureText,
  Filter,
  FilterBar,
  monthLabel,
  PageHeading,
  SeasonSelect,
  TextTag,
  useCalendar,
  useChosenSeason,
  useUrlFilters,
} from './shared';
import { monthToGenerate, PublishCheck } from './publish-check';
import { todayIso } from '../../../lib/portal/entities';

/**
 * The PDF shown in the page: fetched through its signed link into a blob, so the browser displays it instead of saving
 * it.
 */
function PdfPreview({ url, title }: { url: string; title: string }) {
  const { t } = useFeatureTranslation('councilOps');
  const [blobUrl, setBlobUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    fetch(url)
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((b) => {
        if (cancelled) return;
        made = URL.createObjectURL(new Blob([b], { type: 'application/pdf' }));
        setBlobUrl(made);
      })
      .catch((e: unknown) => !cancelled && setError(failureText(e)));
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  if (error) return <Typography.Text type="danger">{t('publishing.previewFailed', { error })}</Typography.Text>;
  if (!blobUrl) return <Skeleton active />;
  return (
    <iframe
      src={blobUrl}
      title={t('publishing.previewOf', { title })}
      style={{ width: '100%', height: '60vh', border: '1px solid #ddd' }}
    />
  );
}

/** Which handlers' filings a document drew from: one line per handler, the versions per form. */
function Sources({ doc }: { doc: GeneratedDoc }) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const lang = i18n.language;
  const query = useQuery(reportSourcesQuery(doc));
  type Line = ReportSources['handlers'][number];
  return (
    <QueryState query={query} isEmpty={(d) => d.handlers.length === 0} emptyText={t('publishing.noSources')}>
      {(d) => {
        const columns: ColumnsType<Line> = [
          { key: 'handler', title: t('board.handler'), render: (_, h) => `${h.handler_number} ${h.handler_name}` },
          ...d.forms.map((form) => ({
            key: form,
            title: t(`forms.${form}`),
            render: (_: unknown, h: Line) =>
              h.filings
                .filter((f) => f.form === form)
                .map(
                  (f) =>
                    `${f.period_month ? monthLabel(f.period_month, lang) : t('publishing.yearEnd')}${f.amendment_number > 0 ? ` (${t('versions.amendmentN', { n: f.amendment_number })})` : ''}`,
                )
                .join(', ') || '—',
          })),
        ];
        return (
          <>
            <Typography.Paragraph>
              {t('publishing.sourcesSummary', {
                count: d.handlers.length,
                date: dateTime(d.report.generated_at, lang),
                months: d.months.length
                  ? `${monthLabel(d.months[0], lang)} – ${monthLabel(d.months.at(-1), lang)}`
                  : '—',
              })}
            </Typography.Paragraph>
            <Table<Line>
              rowKey="handler_id"
              columns={columns}
              dataSource={d.handlers}
              size="small"
              pagination={false}
              scroll={{ x: 600 }}
            />
          </>
        );
      }}
    </QueryState>
  );
}

function DocModal({
  doc,
  tab,
  onClose,
}: {
  doc: GeneratedDoc | null;
  tab: 'preview' | 'sources';
  onClose: () => void;
}) {
  const { t } = useFeatureTranslation('councilOps');
  const pdf = doc?.file?.mime === 'application/pdf';
  return (
    <Modal
      open={!!doc}
      title={doc?.title}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('close')}</Button>}
      width={960}
      destroyOnHidden
    >
      {doc ? (
        <Tabs
          defaultActiveKey={pdf ? tab : 'sources'}
          items={[
            ...(pdf && doc.file
              ? [
                  {
                    key: 'preview',
                    label: t('publishing.preview'),
                    children: <PdfPreview url={doc.file.url} title={doc.title} />,
                  },
                ]
              : []),
            { key: 'sources', label: t('publishing.sources'), children: <Sources doc={doc} /> },
          ]}
        />
      ) : null}
    </Modal>
  );
}

function DocActions({
  doc,
  onOpen,
}: {
  doc: GeneratedDoc;
  onOpen: (doc: GeneratedDoc, tab: 'preview' | 'sources') => void;
}) {
  const { t } = useFeatureTranslation('councilOps');
  const pdf = doc.file?.mime === 'application/pdf';
  return (
    <Space wrap size={4}>
      {pdf ? (
        <Button
          size="small"
          icon={<EyeOutlined />}
          onClick={() => onOpen(doc, 'preview')}
          aria-label={t('publishing.previewOf', { title: doc.title })}
        >
          {t('publishing.preview')}
        </Button>
      ) : null}
      <Button
        size="small"
        icon={<DatabaseOutlined />}
        onClick={() => onOpen(doc, 'sources')}
        aria-label={t('publishing.sourcesOf', { title: doc.title })}
      >
        {t('publishing.sources')}
      </Button>
      {doc.file ? (
        <Button
          size="small"
          icon={<DownloadOutlined />}
          href={doc.file.url}
          download={doc.file.filename}
          aria-label={t('publishing.downloadOf', { title: doc.title })}
        >
          {t('publishing.download')}
        </Button>
      ) : null}
    </Space>
  );
}

function PublishButton({ doc }: { doc: GeneratedDoc }) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const { message } = App.useApp();
  const client = useQueryClient();
  const publish = !doc.publish_to_portal;
  const month = monthLabel(doc.period_month, i18n.language);
  const mutation = useMutation({
    mutationFn: () => publishMonthlyReport(doc.id, publish),
    onSuccess: () => {
      message.success(t(publish ? 'publishing.publishedDone' : 'publishing.unpublishedDone', { month }));
      client.invalidateQueries({ queryKey: councilOpsKeys.reports });
    },
    onError: (e) => message.error(failureText(e)),
  });
  return (
    <Popconfirm
      title={t(publish ? 'publishing.publishConfirmTitle' : 'publishing.unpublishConfirmTitle', { month })}
      description={
        publish ? (
          <>
            <Typography.Paragraph style={{ maxWidth: 380, marginBottom: 8 }}>
              {t('publishing.publishConfirmText')}
            </Typography.Paragraph>
            {doc.period_id ? <PublishCheck periodId={doc.period_id} handlersCount={doc.handlers_count ?? 0} /> : null}
          </>
        ) : (
          t('publishing.unpublishConfirmText')
        )
      }
      okText={t(publish ? 'publishing.publish' : 'publishing.unpublish')}
      // A report from no handler's filings publishes nothing: refused here and by the server.
      okButtonProps={{ disabled: publish && doc.handlers_count === 0 }}
      cancelText={t('cancel')}
      onConfirm={() => mutation.mutateAsync()}
    >
      <Button
        size="small"
        type={publish ? 'primary' : 'default'}
        icon={publish ? <CloudUploadOutlined /> : <StopOutlined />}
        loading={mutation.isPending}
        aria-label={t(publish ? 'publishing.publishOf' : 'publishing.unpublishOf', { month })}
      >
        {t(publish ? 'publishing.publish' : 'publishing.unpublish')}
      </Button>
    </Popconfirm>
  );
}

function MonthlyTable({
  rows,
  onOpen,
}: {
  rows: GeneratedDoc[];
  onOpen: (doc: GeneratedDoc, tab: 'preview' | 'sources') => void;
}) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const lang = i18n.language;
  const columns: ColumnsType<GeneratedDoc> = [
    { key: 'month', title: t('filters.month'), render: (_, d) => <strong>{monthLabel(d.period_month, lang)}</strong> },
    { key: 'generated', title: t('publishing.generatedAt'), render: (_, d) => dateTime(d.generated_at, lang) },
    { key: 'handlers', title: t('publishing.handlersCount'), align: 'end', dataIndex: 'handlers_count' },
    {
      key: 'portal',
      title: t('publishing.portal'),
      render: (_, d) =>
        d.publish_to_portal ? (
          <TextTag color="green" icon={<GlobalOutlined />} text={t('publishing.published')} />
        ) : (
          <TextTag color="default" icon={<EyeInvisibleOutlined />} text={t('publishing.notPublished')} />
        ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, d) => (
        <Space wrap size={4}>
          <PublishButton doc={d} />
          <DocActions doc={d} onOpen={onOpen} />
        </Space>
      ),
    },
  ];
  return (
    <Table<GeneratedDoc>
      rowKey="id"
      columns={columns}
      dataSource={rows}
      size="middle"
      scroll={{ x: 900 }}
      pagination={false}
      locale={{ emptyText: t('publishing.noMonthly') }}
    />
  );
}

function SeasonDocsTable({
  rows,
  onOpen,
  empty,
}: {
  rows: GeneratedDoc[];
  onOpen: (doc: GeneratedDoc, tab: 'preview' | 'sources') => void;
  empty: string;
}) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const columns: ColumnsType<GeneratedDoc> = [
    { key: 'title', title: t('publishing.document'), render: (_, d) => <strong>{d.title}</strong> },
    { key: 'generated', title: t('publishing.generatedAt'), render: (_, d) => dateTime(d.generated_at, i18n.language) },
    { key: 'actions', title: t('actions'), render: (_, d) => <DocActions doc={d} onOpen={onOpen} /> },
  ];
  return (
    <Table<GeneratedDoc>
      rowKey="id"
      columns={columns}
      dataSource={rows}
      size="middle"
      scroll={{ x: 700 }}
      pagination={false}
      locale={{ emptyText: empty }}
    />
  );
}

/** A generate button: runs the call, says what came of it, refreshes the lists. */
function useGenerate(path: string) {
  const { t } = useFeatureTranslation('councilOps');
  const { message } = App.useApp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PeriodMonthInput | SeasonIdInput) => generateReport(path, body),
    onSuccess: (r) => {
      message.success(
        r?.handlers_count !== undefined
          ? t('publishing.generatedWithCount', { count: r.handlers_count })
          : t('publishing.generated'),
      );
      client.invalidateQueries({ queryKey: councilOpsKeys.reports });
    },
    onError: (e) => message.error(t('publishing.generateFailed', { error: failureText(e) })),
  });
}

/**
 * Reports and analytics: generate, preview and publish the monthly report; generate the annual report and industry
 * workbook; see their sources.
 */
export default function PublishingPage() {
  const { t, i18n } = useFeatureTranslation('councilOps');
  useDocumentTitle(t('publishing.title'));
  const [filters, setFilters] = useUrlFilters(['season', 'tab'] as const);
  const { seasons, season } = useChosenSeason(filters.season);
  const calendar = useCalendar(season?.id);
  const [month, setMonth] = useState<string | undefined>();
  const [open, setOpen] = useState<{ doc: GeneratedDoc; tab: 'preview' | 'sources' } | null>(null);
  const list = useQuery({
    ...reportListQuery(season?.id),
    enabled: !!season,
  });
  const monthly = useGenerate('/reports/monthly');
  const annual = useGenerate('/reports/annual');
  const industry = useGenerate('/analytics/industry');
  const periods = calendar.data?.periods ?? [];
  const onOpen = (doc: GeneratedDoc, tab: 'preview' | 'sources') => setOpen({ doc, tab });
  return (
    <Card>
      <PageHeading title={t('publishing.title')} intro={t('publishing.intro')} />
      <FilterBar>
        <SeasonSelect
          id="pub-season"
          seasons={seasons}
          value={season?.id}
          onChange={(id) => setFilters({ season: id })}
        />
      </FilterBar>
      <QueryState query={list}>
        {(d) => (
          <Tabs
            activeKey={filters.tab ?? 'monthly'}
            onChange={(k) => setFilters({ tab: k === 'monthly' ? undefined : k })}
            items={[
              {
                key: 'monthly',
                label: t('publishing.monthly'),
                children: (
                  <>
                    <FilterBar>
                      <Filter id="pub-month" label={t('publishing.monthToGenerate')}>
                        <Select
                          id="pub-month"
                          style={{ minWidth: 200 }}
                          value={month ?? monthToGenerate(periods, todayIso())?.period_month}
                          onChange={setMonth}
                          options={periods.map((p) => ({
                            value: p.period_month,
                            label: monthLabel(p.period_month, i18n.language),
                          }))}
                        />
                      </Filter>
                      <Button
                        type="primary"
                        icon={<FileAddOutlined />}
                        loading={monthly.isPending}
                        disabled={periods.length === 0}
                        onClick={() =>
                          monthly.mutate({ period_month: month ?? monthToGenerate(periods, todayIso())!.period_month })
                        }
                      >
                        {t('publishing.generateMonthly')}
                      </Button>
                    </FilterBar>
                    <Typography.Paragraph type="secondary">{t('publishing.monthlyHelp')}</Typography.Paragraph>
                    <MonthlyTable rows={d.monthly} onOpen={onOpen} />
                  </>
                ),
              },
              {
                key: 'annual',
                label: t('publishing.annual'),
                children: (
                  <>
                    <FilterBar>
                      <Button
                        type="primary"
                        icon={<FileAddOutlined />}
                        loading={annual.isPending}
                        onClick={() => annual.mutate({ season_id: d.season.id })}
                      >
                        {t('publishing.generateAnnual', { season: d.season.title })}
                      </Button>
                    </FilterBar>
                    <SeasonDocsTable rows={d.annual} onOpen={onOpen} empty={t('publishing.noAnnual')} />
                  </>
                ),
              },
              {
                key: 'analytics',
                label: t('publishing.analytics'),
                children: (
                  <>
                    <FilterBar>
                      <Button
                        type="primary"
                        icon={<FileAddOutlined />}
                        loading={industry.isPending}
                        onClick={() => industry.mutate({ season_id: d.season.id })}
                      >
                        {t('publishing.generateAnalytics', { season: d.season.title })}
                      </Button>
                    </FilterBar>
                    <Typography.Paragraph type="secondary">{t('publishing.analyticsHelp')}</Typography.Paragraph>
                    <SeasonDocsTable rows={d.industry_analytics} onOpen={onOpen} empty={t('publishing.noAnalytics')} />
                  </>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <DocModal doc={open?.doc ?? null} tab={open?.tab ?? 'preview'} onClose={() => setOpen(null)} />
    </Card>
  );
}

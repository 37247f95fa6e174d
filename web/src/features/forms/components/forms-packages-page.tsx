import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FilingPage } from '../../../components/filing-page';
import { ErrorWithRetry, QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate } from '../../../lib/i18n/format';
import { attr, bool, fileName, fileUrl, one, todayIso } from '../../../lib/portal/entities';
import {
  bundleOf,
  dueDateOf,
  FORM_NUMBERS,
  formDisplayStatus,
  periodMonthOf,
  useSeasonPackages,
  versionsOf,
  type FormNumber,
  type FormsPackage,
} from '../../../lib/portal/packages';
import { currentOrNewestSeason, useSeasons } from '../../../lib/portal/seasons';
import { useSession } from '../../../lib/session/use-session';
import { StatusBadge } from './status-badge';

function FormVersions({ pkg, n, today }: { pkg: FormsPackage; n: FormNumber; today: string }) {
  const { t, i18n } = useTranslation('filing');
  const versions = versionsOf(pkg, n);
  const due = dueDateOf(pkg);
  if (!versions.length) return <Typography.Text type="secondary">{t('packages.noForm')}</Typography.Text>;
  return (
    <ol
      style={{ listStyle: 'none', margin: 0, padding: 0 }}
      aria-label={t('packages.versionsOf', { form: t('forms.formN', { n }) })}
    >
      {versions.map((form, i) => {
        const isCurrent = i === versions.length - 1;
        const status = formDisplayStatus(form, due, today, isCurrent);
        const amendment = attr(form, 'field_amendment_number') ?? 0;
        const pdf = one(form, `field_form_${n}_pdf`);
        const url = fileUrl(pdf);
        const certifiedAt = attr(form, 'field_certification_datetime');
        return (
          <li
            key={form.id}
            style={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 6,
              padding: '4px 0',
            }}
          >
            <Link to={`/dashboard/forms/${bundleOf(n)}/${form.id}`}>
              {amendment > 0 ? t('forms.amendmentN', { n: amendment }) : t('forms.original')}
            </Link>
            <StatusBadge status={status} />
            {certifiedAt ? (
              <Typography.Text type="secondary">{formatDate(certifiedAt, i18n.language)}</Typography.Text>
            ) : null}
            {url ? (
              <a href={url} download={fileName(pdf)} aria-label={`${t('forms.downloadPdf')}: ${fileName(pdf) ?? ''}`}>
                <DownloadOutlined aria-hidden="true" /> PDF
              </a>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

function PackageCard({ pkg, today }: { pkg: FormsPackage; today: string }) {
  const { t, i18n } = useTranslation('filing');
  const month = periodMonthOf(pkg);
  const title = month
    ? formatDate(`${month}-01`, i18n.language, { month: 'long', year: 'numeric' })
    : attr(one(pkg, 'field_reporting_period'), 'title');
  const firstOpen = FORM_NUMBERS.map((n) => ({ n, list: versionsOf(pkg, n) })).find(
    ({ list }) => list.length && attr(list[list.length - 1], 'field_form_status') === 'draft',
  );
  return (
    <Card
      size="small"
      title={<span style={{ whiteSpace: 'normal' }}>{title}</span>}
      extra={
        <Typography.Text type="secondary">
          {t('packages.due', { date: formatDate(dueDateOf(pkg), i18n.language) })}
        </Typography.Text>
      }
      style={{ height: '100%' }}
      aria-label={title ?? undefined}
    >
      {FORM_NUMBERS.map((n) => (
        <div
          key={n}
          style={{
            display: 'grid',
            gridTemplateColumns: 'minmax(72px, max-content) 1fr',
            gap: 8,
            padding: '6px 0',
            borderBottom: n < 3 ? '1px solid rgba(128,128,128,0.15)' : undefined,
          }}
        >
          <strong>{t('forms.formN', { n })}</strong>
          <FormVersions pkg={pkg} n={n} today={today} />
        </div>
      ))}
      {firstOpen ? (
        <Link to={`/dashboard/forms/${bundleOf(firstOpen.n)}/${firstOpen.list[firstOpen.list.length - 1].id}`}>
          <Button type="primary" size="small" style={{ marginTop: 8 }}>
            {t('packages.continue')}
          </Button>
        </Link>
      ) : null}
    </Card>
  );
}

function PackagesContent() {
  const { t } = useTranslation('filing');
  const { t: tc } = useTranslation();
  useDocumentTitle(tc('nav.formsPackages'));
  const { profile } = useSession();
  const seasons = useSeasons();
  const [chosen, setChosen] = useState<string | null>(null);
  const seasonId = chosen ?? currentOrNewestSeason(seasons.data)?.id ?? null;
  const packages = useSeasonPackages(profile.handlerUid, seasonId);
  const today = todayIso();
  return (
    <Card>
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          gap: 12,
          alignItems: 'flex-end',
          marginBottom: 16,
        }}
      >
        <div style={{ flex: '1 1 300px' }}>
          <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
            {tc('nav.formsPackages')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('packages.intro')}
          </Typography.Paragraph>
        </div>
        <Space direction="vertical" size={4} style={{ flex: '0 1 240px', minWidth: 200 }}>
          <label htmlFor="packages-season">{t('dashboard.season')}</label>
          <Select
            id="packages-season"
            style={{ width: '100%' }}
            value={seasonId ?? undefined}
            onChange={setChosen}
            loading={seasons.isPending}
            options={(seasons.data ?? []).map((s) => ({
              value: s.id,
              label: bool(s, 'field_current_season')
                ? t('dashboard.currentSeasonLabel', { title: attr(s, 'title') })
                : attr(s, 'title'),
            }))}
          />
        </Space>
      </div>
      {seasons.error ? <ErrorWithRetry error={seasons.error} onRetry={seasons.refetch} /> : null}
      {!profile.handlerUid ? (
        <Typography.Paragraph>{t('dashboard.noHandler')}</Typography.Paragraph>
      ) : (
        <QueryState query={packages} rows={8} isEmpty={(l) => l.length === 0} emptyText={t('dashboard.noPackages')}>
          {(list) => (
            <Row gutter={[16, 16]}>
              {list.map((pkg) => (
                <Col key={pkg.id} xs={24} lg={12} xxl={8}>
                  <PackageCard pkg={pkg} today={today} />
                </Col>
              ))}
            </Row>
          )}
        </QueryState>
      )}
    </Card>
  );
}

export default function FormsPackagesPage() {
  return (
    <FilingPage>
      <PackagesContent />
    </FilingPage>
  );
}

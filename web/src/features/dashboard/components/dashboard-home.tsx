import { CheckCircleTwoTone, DownloadOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Row, Space, theme, Typography } from 'antd';
import { Suspense, useDeferredValue, useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorWithRetry, QueryState } from '../../../components/query-state';
import { FilingPage } from '../../../components/filing-page';
import { NATIVE_OPTION_STYLE, NativeSelect } from '../../../components/native-select';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate, formatMoney } from '../../../lib/i18n/format';
import { attr, bool, fileName, fileUrl, one, todayIso } from '../../../lib/portal/entities';
import { forgetCertifiedForm, justCertifiedForm, useHandler } from '../../../lib/portal/handler';
import { useOpenInvoices, openTotal, overdueTotal } from '../../../lib/portal/invoices';
import {
  bundleOf,
  currentVersionOf,
  dueDateOf,
  FORM_NUMBERS,
  periodMonthOf,
  useSeasonPackages,
  type FormsPackage,
} from '../../../lib/portal/packages';
import { currentSeasonOf, useSeasons, type Season } from '../../../lib/portal/seasons';
import { useAwaitingCountersignature } from '../../../lib/portal/transfers-awaiting';
import { useSession } from '../../../lib/session/use-session';
import { useNewestPositionReport } from '../api/position-reports';
import { useConfirmPacket, usePacketConfirmation } from '../hooks/use-packet-confirmation';
import { useStartupReads } from '../hooks/use-startup-reads';
import { PageLoader } from '../../../components/page-loader';
import { SeasonStatusTable } from './season-status-table';

/** The month whose forms 1-3 are due next (due on the 10th of the following month) and that due date. */
export function nextMonthlyDue(today: Date): { month: Date; due: Date } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  // Up to the 10th, last month's forms are due this month; after it, this month's forms are due next month.
  const reportMonth = today.getUTCDate() <= 10 ? new Date(Date.UTC(y, m - 1, 1)) : new Date(Date.UTC(y, m, 1));
  const due = new Date(Date.UTC(reportMonth.getUTCFullYear(), reportMonth.getUTCMonth() + 1, 10));
  return { month: reportMonth, due };
}

/** The package due next: the earliest due date on or after today; null when the season has none left. */
export function nextDuePackage(packages: FormsPackage[], today: string): FormsPackage | null {
  const upcoming = packages
    .filter((p) => (dueDateOf(p) ?? '') >= today)
    .sort((a, b) => (dueDateOf(a) ?? '').localeCompare(dueDateOf(b) ?? ''));
  return upcoming[0] ?? null;
}

/** The forms' card of certified months whose year-to-date an amendment made stale, given by app/ (a lazy component). */
export type StaleMonthsCardType = ComponentType<{ handlerId: string; fromMonth: string | null }>;

/**
 * The stale months' card, read a second after the page is up, as the top bar's account menu is (layout/topbar.tsx),
 * so that the check and its code are no part of the dashboard's first load.
 */
function StaleMonthsLater({
  handlerId,
  fromMonth,
  StaleMonthsCard,
}: {
  handlerId: string;
  fromMonth: string | null;
  StaleMonthsCard: StaleMonthsCardType;
}) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 1000);
    return () => clearTimeout(timer);
  }, []);
  return shown ? (
    <Suspense fallback={null}>
      <StaleMonthsCard handlerId={handlerId} fromMonth={fromMonth} />
    </Suspense>
  ) : null;
}

/** The current season's first month ('YYYY-09'): stale months are looked for from there on. */
const seasonStartMonth = (season: Season | null | undefined): string | null =>
  attr(season, 'field_season_start_date')?.slice(0, 7) ?? null;

const monthLabel = (month: string | null, lang: string) =>
  month ? formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' }) : '';

function NextDueCard({ packages, today }: { packages: FormsPackage[]; today: string }) {
  const { t, i18n } = useTranslation('filing');
  const next = nextDuePackage(packages, today);
  if (!next) return <Typography.Paragraph>{t('dashboard.nothingDue')}</Typography.Paragraph>;
  const open = FORM_NUMBERS.filter((n) => {
    const form = currentVersionOf(next, n);
    return form && attr(form, 'field_form_status') === 'draft';
  });
  return (
    <>
      <Typography.Paragraph style={{ fontSize: 16, marginBottom: 8 }}>
        {t('dashboard.nextDueText', {
          month: monthLabel(periodMonthOf(next), i18n.language),
          date: formatDate(dueDateOf(next), i18n.language, { dateStyle: 'long' }),
        })}
      </Typography.Paragraph>
      <Typography.Paragraph type={open.length ? undefined : 'success'} style={{ marginBottom: 0 }}>
        {open.length
          ? t('dashboard.formsToFile', { forms: open.map((n) => t('forms.formN', { n })).join(', ') })
          : t('dashboard.allFiled')}
      </Typography.Paragraph>
      {open.length ? (
        <Space wrap style={{ marginTop: 12 }}>
          {open.map((n) => (
            <Link key={n} to={`/dashboard/forms/${bundleOf(n)}/${currentVersionOf(next, n)!.id}`}>
              <Button size="small">{t('dashboard.fileFormN', { n })}</Button>
            </Link>
          ))}
        </Space>
      ) : null}
    </>
  );
}

function InvoicesCard({ handlerId, today }: { handlerId: string; today: string }) {
  const { t, i18n } = useTranslation('filing');
  const query = useOpenInvoices(handlerId);
  // The theme's darker error red: text in it passes 4.5:1 on the card in both themes (colorError does not).
  const danger = theme.useToken().token.colorErrorTextActive;
  return (
    <QueryState query={query} rows={2}>
      {(invoices) => {
        const total = openTotal(invoices, today);
        const overdue = overdueTotal(invoices, today);
        return (
          <>
            <Typography.Paragraph style={{ fontSize: 16, marginBottom: 8 }}>
              {total.count ? t('dashboard.openInvoices', { count: total.count }) : t('dashboard.noOpenInvoices')}
            </Typography.Paragraph>
            {total.count ? (
              <Typography.Paragraph
                style={{ fontSize: 22, fontWeight: 600, marginBottom: 8 }}
                data-testid="open-invoices-total"
              >
                {formatMoney(total.amount, i18n.language)}
              </Typography.Paragraph>
            ) : null}
            {overdue.count ? (
              <Typography.Paragraph
                strong
                style={{ fontSize: 16, marginBottom: 8, color: danger }}
                data-testid="overdue-invoices"
              >
                <WarningOutlined aria-hidden="true" />{' '}
                {t('dashboard.overdueInvoices', {
                  count: overdue.count,
                  amount: formatMoney(overdue.amount, i18n.language),
                })}
              </Typography.Paragraph>
            ) : null}
            <Link to="/dashboard/invoices">{t('dashboard.viewInvoices')}</Link>
          </>
        );
      }}
    </QueryState>
  );
}

function PositionReportCard() {
  const { t, i18n } = useTranslation('filing');
  const query = useNewestPositionReport();
  return (
    <QueryState query={query} rows={2} isEmpty={(r) => !r} emptyText={t('dashboard.noReport')}>
      {(report) => {
        const file = one(report!, 'field_position_report_pdf');
        const url = fileUrl(file);
        const month = attr(one(report!, 'field_reporting_period'), 'field_period_month');
        return (
          <>
            <Typography.Paragraph style={{ fontSize: 16, marginBottom: 12 }}>
              {t('dashboard.reportOf', { month: monthLabel(month, i18n.language) })}
            </Typography.Paragraph>
            {url ? (
              <a href={url} download={fileName(file)} className="ant-btn ant-btn-default">
                <DownloadOutlined aria-hidden="true" /> {t('dashboard.downloadReport')}
              </a>
            ) : (
              <Typography.Text type="secondary">{t('common.noFile')}</Typography.Text>
            )}
          </>
        );
      }}
    </QueryState>
  );
}

function PacketCard({ handlerId, season }: { handlerId: string; season: Season | null }) {
  const { t, i18n } = useTranslation('filing');
  const { profile } = useSession();
  const handler = useHandler(handlerId);
  const query = usePacketConfirmation(handlerId, season?.id ?? null);
  const confirm = useConfirmPacket();
  if (!season) return <Typography.Paragraph>{t('dashboard.noCurrentSeason')}</Typography.Paragraph>;
  return (
    <QueryState query={query} rows={2}>
      {(existing) => {
        const confirmed = existing && bool(existing, 'field_handler_packet_confirm');
        return (
          <>
            {confirmed ? (
              <Typography.Paragraph style={{ fontSize: 16 }}>
                <CheckCircleTwoTone twoToneColor="#52c41a" aria-hidden="true" />{' '}
                {t('dashboard.packetConfirmed', {
                  season: attr(season, 'title'),
                  name: attr(existing, 'field_certification_name') ?? '',
                  date: formatDate(attr(existing, 'field_certification_datetime'), i18n.language, {
                    dateStyle: 'medium',
                    timeStyle: 'short',
                  }),
                })}
              </Typography.Paragraph>
            ) : (
              <>
                <Typography.Paragraph style={{ fontSize: 16 }}>
                  {t('dashboard.packetNotConfirmed', { season: attr(season, 'title') })}
                </Typography.Paragraph>
                <Button
                  type="primary"
                  loading={confirm.isPending}
                  onClick={() =>
                    confirm.mutate({
                      handler: handler.data ?? null,
                      handlerId: profile.handlerUid ?? handlerId,
                      handlerNumber:
                        profile.handlerNumber ??
                        (handler.data?.field_handler_number != null ? String(handler.data.field_handler_number) : null),
                      season,
                      username: profile.username ?? '',
                    })
                  }
                >
                  {t('dashboard.confirmPacket')}
                </Button>
              </>
            )}
            {confirm.error ? (
              <div style={{ marginTop: 12 }}>
                <ErrorWithRetry error={confirm.error} title={t('dashboard.confirmFailed')} />
              </div>
            ) : null}
          </>
        );
      }}
    </QueryState>
  );
}

/**
 * The transfer agreements other handlers filed naming this one as the receiver, certified and awaiting its
 * countersignature (read in the sign-in's batch): how many, and the way to the transfers page. Gone once each is
 * countersigned or cancelled (the transfers page refreshes this read with its own).
 */
function AwaitingCountersignatureAlert({ handlerId }: { handlerId: string }) {
  const { t } = useTranslation('filing');
  const count = useAwaitingCountersignature(handlerId).data?.length ?? 0;
  if (count === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="awaiting-countersignature"
      message={t('dashboard.awaitingCountersignature', { count })}
      description={<Link to="/dashboard/transfers">{t('dashboard.reviewTransfers')}</Link>}
    />
  );
}

function JustCertifiedAlert() {
  const { t } = useTranslation('filing');
  return (
    <Alert
      type="success"
      showIcon
      closable
      onClose={() => forgetCertifiedForm()}
      message={t('dashboard.justCertifiedTitle')}
      description={t('dashboard.justCertifiedText')}
      style={{ marginBottom: 16 }}
    />
  );
}

/**
 * The dashboard. Until the start-up reads are in (`ready`), the greeting and the company line (known from the
 * session) show with the season select loading, and the cards wait: mounted, they would each ask on their own.
 */
function DashboardContent({ ready, staleMonthsCard }: { ready: boolean; staleMonthsCard?: StaleMonthsCardType }) {
  const { t } = useTranslation('filing');
  const { t: tc } = useTranslation();
  const { profile, isStaff } = useSession();
  useDocumentTitle(tc('nav.dashboard'));
  const seasons = useSeasons({ enabled: ready });
  const current = currentSeasonOf(seasons.data);
  const [chosen, setChosen] = useState<string | null>(null);
  const seasonId = chosen ?? current?.id ?? seasons.data?.[0]?.id ?? null;
  const season = seasons.data?.find((s) => s.id === seasonId) ?? null;
  const handlerId = profile.handlerUid;
  const packages = useSeasonPackages(ready ? handlerId : null, seasonId);
  const today = todayIso();
  const justCertified = justCertifiedForm();
  const name = profile.userFirstName || profile.username;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <div
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 16,
            justifyContent: 'space-between',
            alignItems: 'flex-start',
          }}
        >
          <div style={{ minWidth: 0, flex: '1 1 320px' }}>
            <Typography.Title level={1} style={{ fontSize: 26, marginTop: 0 }}>
              {name ? tc('dashboard.welcome', { name }) : tc('dashboard.welcomeNoName')}
            </Typography.Title>
            {profile.handlerName ? (
              <Typography.Paragraph style={{ fontSize: 16, marginBottom: 0 }}>
                {/* First-strong isolates keep a Latin company name from reordering the Arabic sentence around it. */}
                {tc('dashboard.handlerLine', {
                  name: `\u2068${profile.handlerName}\u2069`,
                  number: profile.handlerNumber ?? '',
                })}
              </Typography.Paragraph>
            ) : null}
            {isStaff ? (
              <Typography.Paragraph style={{ fontSize: 16, marginBottom: 0 }}>
                {tc('dashboard.staffLine')}
              </Typography.Paragraph>
            ) : null}
          </div>
          <div style={{ flex: '0 1 240px', minWidth: 200 }}>
            <label htmlFor="season-select" style={{ display: 'block', marginBottom: 4 }}>
              {t('dashboard.season')}
            </label>
            <NativeSelect
              id="season-select"
              style={{ width: '100%' }}
              value={seasonId ?? ''}
              disabled={!ready || seasons.isPending}
              aria-busy={!ready || seasons.isPending}
              onChange={(e) => setChosen(e.target.value)}
            >
              {seasonId ? null : <option value="" style={NATIVE_OPTION_STYLE} />}
              {(seasons.data ?? []).map((s) => (
                <option key={s.id} value={s.id} style={NATIVE_OPTION_STYLE}>
                  {bool(s, 'field_current_season')
                    ? t('dashboard.currentSeasonLabel', { title: attr(s, 'title') })
                    : attr(s, 'title')}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
      </Card>
      {seasons.error ? <ErrorWithRetry error={seasons.error} onRetry={seasons.refetch} /> : null}
      {justCertified ? <JustCertifiedAlert /> : null}
      {!ready ? (
        <PageLoader />
      ) : !handlerId ? (
        <Card>
          <Typography.Paragraph style={{ marginBottom: 0 }}>{t('dashboard.noHandler')}</Typography.Paragraph>
        </Card>
      ) : (
        <>
          <AwaitingCountersignatureAlert handlerId={handlerId} />
          {staleMonthsCard && (
            <StaleMonthsLater
              handlerId={handlerId}
              fromMonth={seasonStartMonth(current)}
              StaleMonthsCard={staleMonthsCard}
            />
          )}
          <Row gutter={[16, 16]}>
            <Col xs={24} md={12} xl={6}>
              <Card title={t('dashboard.nextDue')} style={{ height: '100%' }}>
                <QueryState query={packages} rows={2}>
                  {(list) => <NextDueCard packages={list} today={today} />}
                </QueryState>
              </Card>
            </Col>
            <Col xs={24} md={12} xl={6}>
              <Card title={t('dashboard.invoices')} style={{ height: '100%' }}>
                <InvoicesCard handlerId={handlerId} today={today} />
              </Card>
            </Col>
            <Col xs={24} md={12} xl={6}>
              <Card title={t('dashboard.positionReport')} style={{ height: '100%' }}>
                <PositionReportCard />
              </Card>
            </Col>
            <Col xs={24} md={12} xl={6}>
              <Card title={t('dashboard.packet')} style={{ height: '100%' }}>
                <PacketCard handlerId={handlerId} season={current} />
              </Card>
            </Col>
          </Row>
          <Card
            title={t('dashboard.seasonStatusOf', { season: attr(season, 'title') ?? '' })}
            extra={<Link to="/dashboard/forms">{t('dashboard.allPackages')}</Link>}
            // The title wraps instead of ending in an ellipsis: on a phone the season's name was cut off.
            styles={{ title: { whiteSpace: 'normal' } }}
          >
            <QueryState query={packages} isEmpty={(l) => l.length === 0} emptyText={t('dashboard.noPackages')}>
              {(list) => <SeasonStatusTable packages={list} today={today} justCertified={justCertified} />}
            </QueryState>
            <Descriptions
              size="small"
              column={1}
              style={{ marginTop: 12 }}
              items={[{ key: 'legend', label: t('dashboard.legend'), children: t('dashboard.legendText') }]}
            />
          </Card>
        </>
      )}
    </Space>
  );
}

/**
 * `staleMonthsCard` and `staffHome`: other features' parts, which app/ puts in (app/dashboard-pages.ts), since a
 * feature imports no other. Staff with no handler get the council's home instead of a handler's dashboard.
 */
export default function DashboardHome({
  staleMonthsCard,
  staffHome: StaffHome,
}: {
  staleMonthsCard?: StaleMonthsCardType;
  staffHome?: ComponentType;
}) {
  const { isStaff, profile } = useSession();
  if (isStaff && !profile.handlerUid && StaffHome) {
    return (
      <Suspense fallback={<PageLoader />}>
        <StaffHome />
      </Suspense>
    );
  }
  return <HandlerDashboard staleMonthsCard={staleMonthsCard} />;
}

function HandlerDashboard({ staleMonthsCard }: { staleMonthsCard?: StaleMonthsCardType }) {
  // The cards' reads come in one batch: they mount once it is done, so none of them asks on its own first.
  const { ready } = useStartupReads();
  // A query's answer re-renders synchronously (useSyncExternalStore), and mounting every card at once with its data
  // is the page's largest piece of work: as a deferred value React renders it in slices of a few milliseconds, so
  // the page stays responsive (on a slow phone it was one task of 200 ms and more).
  const cardsShown = useDeferredValue(ready);
  return (
    <FilingPage>
      <DashboardContent ready={cardsShown} staleMonthsCard={staleMonthsCard} />
    </FilingPage>
  );
}

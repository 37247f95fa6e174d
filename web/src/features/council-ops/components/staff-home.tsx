import {
  AlertOutlined,
  AuditOutlined,
  CalendarOutlined,
  DollarOutlined,
  FileDoneOutlined,
  MailOutlined,
  UserAddOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { Card, Col, List, Row, Space, Statistic, Tag, theme, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate, formatMoney, formatNumber } from '../../../lib/i18n/format';
import { useSession } from '../../../lib/session/use-session';
import { useStaffHome, type FilingStatus, type StaffHome } from '../api/staff-home-api';

const STATUSES: FilingStatus[] = ['overdue', 'not_started', 'draft', 'certified', 'amended'];
const STATUS_COLOR: Record<FilingStatus, string> = {
  overdue: 'red',
  not_started: 'default',
  draft: 'blue',
  certified: 'green',
  amended: 'purple',
};
const BOARD = '/dashboard/council/board';

const monthOf = (month: string, lang: string) => formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' });

/** One figure of the home: a card with its statistic, what it means, and the console page that deals with it. */
function Tile({
  title,
  icon,
  children,
  link,
  linkText,
  testId,
}: {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  link: string;
  linkText: string;
  testId: string;
}) {
  return (
    <Card
      title={
        <Space size={8}>
          {icon}
          <span>{title}</span>
        </Space>
      }
      style={{ height: '100%', display: 'flex', flexDirection: 'column' }}
      styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column' }, title: { whiteSpace: 'normal' } }}
      data-testid={testId}
    >
      <div style={{ flex: 1 }}>{children}</div>
      {/* In the card's body, in the link colour: antd's card actions are grey (3.4:1). */}
      <div style={{ marginTop: 16 }}>
        <Link to={link}>{linkText}</Link>
      </div>
    </Card>
  );
}

function MonthTile({ month }: { month: NonNullable<StaffHome['month']> }) {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const lang = i18n.language;
  const late = month.days_left < 0;
  const danger = theme.useToken().token.colorErrorTextActive;
  return (
    <Tile
      title={t('month.title', { month: monthOf(month.period_month, lang) })}
      icon={<CalendarOutlined aria-hidden="true" />}
      testId="home-month"
      link={`${BOARD}?period=${month.period_id}`}
      linkText={t('month.link')}
    >
      <Statistic
        title={t('month.due', { date: formatDate(month.due_date, lang, { dateStyle: 'long' }) })}
        value={formatNumber(Math.abs(month.days_left), lang)}
        suffix={
          late
            ? t('month.daysLate', { count: Math.abs(month.days_left) })
            : t('month.daysLeft', { count: month.days_left })
        }
        valueStyle={late ? { color: danger } : undefined}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 8 }}>
        {t('month.filings', { count: month.handlers })}
      </Typography.Paragraph>
      <Space wrap size={[6, 6]} role="list" aria-label={t('month.byStatus')}>
        {STATUSES.map((s) => (
          <span role="listitem" key={s}>
            <Link to={`${BOARD}?period=${month.period_id}&status=${s}`} data-testid={`home-status-${s}`}>
              <Tag color={STATUS_COLOR[s]} style={{ marginInlineEnd: 0 }}>
                {t(`status.${s}`)}: <strong>{formatNumber(month.counts[s] ?? 0, lang)}</strong>
              </Tag>
            </Link>
          </span>
        ))}
      </Space>
    </Tile>
  );
}

function OverdueTile({ home }: { home: StaffHome }) {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const lang = i18n.language;
  const list = home.overdue_handlers;
  const danger = theme.useToken().token.colorErrorTextActive;
  return (
    <Tile
      title={t('overdue.title')}
      icon={<WarningOutlined aria-hidden="true" />}
      testId="home-overdue"
      link={`${BOARD}?status=overdue${list[0] ? `&period=${list[0].months[0].period_id}` : ''}`}
      linkText={t('overdue.link')}
    >
      <Statistic
        title={t('overdue.stat')}
        value={formatNumber(list.length, lang)}
        valueStyle={list.length ? { color: danger } : undefined}
      />
      {list.length ? (
        <List
          size="small"
          style={{ marginTop: 8 }}
          dataSource={list}
          renderItem={(h) => (
            <List.Item style={{ paddingInline: 0 }}>
              <Link to={`${BOARD}?period=${h.months[0].period_id}&q=${encodeURIComponent(h.handler_number)}`}>
                <strong>{h.handler_number}</strong> <bdi>{h.handler_name}</bdi>
              </Link>
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                {h.months.map((m) => monthOf(m.period_month, lang)).join(', ')}
              </Typography.Text>
            </List.Item>
          )}
        />
      ) : (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('overdue.none')}
        </Typography.Paragraph>
      )}
    </Tile>
  );
}

function InvoicesTile({ invoices }: { invoices: StaffHome['invoices'] }) {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const lang = i18n.language;
  const danger = theme.useToken().token.colorErrorTextActive;
  return (
    <Tile
      title={t('invoices.title')}
      icon={<DollarOutlined aria-hidden="true" />}
      testId="home-invoices"
      link="/dashboard/council/billing?status=open"
      linkText={t('invoices.link')}
    >
      <Statistic
        title={t('invoices.unpaid', { count: invoices.unpaid })}
        value={formatMoney(invoices.unpaid_total, lang)}
      />
      <Typography.Paragraph
        style={{ marginTop: 8, marginBottom: 0, ...(invoices.overdue ? { color: danger, fontWeight: 600 } : {}) }}
        type={invoices.overdue ? undefined : 'secondary'}
        data-testid="home-invoices-overdue"
      >
        {invoices.overdue
          ? t('invoices.overdue', { count: invoices.overdue, amount: formatMoney(invoices.overdue_total, lang) })
          : t('invoices.noneOverdue')}
      </Typography.Paragraph>
    </Tile>
  );
}

function ReportsTile({ home }: { home: StaffHome }) {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const lang = i18n.language;
  const ready = home.reports_to_publish;
  return (
    <Tile
      title={t('reports.title')}
      icon={<FileDoneOutlined aria-hidden="true" />}
      testId="home-reports"
      link="/dashboard/council/publishing"
      linkText={t('reports.link')}
    >
      <Statistic title={t('reports.stat')} value={formatNumber(ready.length, lang)} />
      {ready.length ? (
        <List
          size="small"
          style={{ marginTop: 8 }}
          dataSource={ready}
          renderItem={(r) => (
            <List.Item style={{ paddingInline: 0 }}>
              {t('reports.item', { month: monthOf(r.period_month, lang), count: r.handlers_count })}
            </List.Item>
          )}
        />
      ) : null}
    </Tile>
  );
}

function CountTile({
  title,
  icon,
  stat,
  value,
  link,
  linkText,
  note,
  testId,
}: {
  title: string;
  icon: ReactNode;
  stat: string;
  value: number;
  link: string;
  linkText: string;
  note?: string;
  testId: string;
}) {
  const { i18n } = useFeatureTranslation('staffHome');
  return (
    <Tile title={title} icon={icon} link={link} linkText={linkText} testId={testId}>
      <Statistic title={stat} value={formatNumber(value, i18n.language)} />
      {note ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {note}
        </Typography.Paragraph>
      ) : null}
    </Tile>
  );
}

function RemindersTile({ reminders }: { reminders: StaffHome['reminders'] }) {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const lang = i18n.language;
  const danger = theme.useToken().token.colorErrorTextActive;
  return (
    <Tile
      title={t('reminders.title')}
      icon={<MailOutlined aria-hidden="true" />}
      testId="home-reminders"
      link={reminders.failed ? '/dashboard/council/reminders?status=failed' : '/dashboard/council/reminders'}
      linkText={t('reminders.link')}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Statistic title={t('reminders.sent')} value={formatNumber(reminders.sent, lang)} />
        </Col>
        <Col span={12}>
          <Statistic
            title={t('reminders.failed')}
            value={formatNumber(reminders.failed, lang)}
            valueStyle={reminders.failed ? { color: danger } : undefined}
          />
        </Col>
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('reminders.since', { date: formatDate(reminders.since, lang, { dateStyle: 'medium' }) })}
        {reminders.retrying ? ` ${t('reminders.retrying', { count: reminders.retrying })}` : ''}
      </Typography.Paragraph>
    </Tile>
  );
}

/**
 * The council staff's home (the dashboard of a staff user without a handler): what needs them today, each figure
 * linking to the console page that deals with it. One read: GET /api/council/home.
 */
export default function StaffHomePage() {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const { profile } = useSession();
  useDocumentTitle(t('title'));
  const query = useStaffHome();
  const name = profile.userFirstName || profile.username;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Typography.Title level={1} style={{ fontSize: 26, marginTop: 0 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Paragraph style={{ fontSize: 16, marginBottom: 0 }}>
          {name ? t('greeting', { name }) : t('greetingNoName')}{' '}
          {query.data ? t('today', { date: formatDate(query.data.today, i18n.language, { dateStyle: 'full' }) }) : null}
        </Typography.Paragraph>
      </Card>
      <QueryState query={query} rows={6}>
        {(home) => (
          <Row gutter={[16, 16]}>
            {home.month ? (
              <Col xs={24} lg={12} xl={8}>
                <MonthTile month={home.month} />
              </Col>
            ) : null}
            <Col xs={24} lg={12} xl={8}>
              <OverdueTile home={home} />
            </Col>
            <Col xs={24} md={12} xl={8}>
              <InvoicesTile invoices={home.invoices} />
            </Col>
            <Col xs={24} md={12} xl={6}>
              <CountTile
                title={t('requests.title')}
                icon={<UserAddOutlined aria-hidden="true" />}
                testId="home-requests"
                stat={t('requests.stat')}
                value={home.account_requests.count}
                link="/dashboard/council/account-requests"
                linkText={t('requests.link')}
              />
            </Col>
            <Col xs={24} md={12} xl={6}>
              <CountTile
                title={t('amendments.title')}
                icon={<AuditOutlined aria-hidden="true" />}
                testId="home-amendments"
                stat={t('amendments.stat')}
                value={home.amendments_waiting.count}
                link="/dashboard/council/publishing"
                linkText={t('amendments.link')}
                note={
                  home.amendments_waiting.count
                    ? t('amendments.months', {
                        months: home.amendments_waiting.months.map((m) => monthOf(m, i18n.language)).join(', '),
                      })
                    : t('amendments.none')
                }
              />
            </Col>
            <Col xs={24} md={12} xl={6}>
              <ReportsTile home={home} />
            </Col>
            <Col xs={24} md={12} xl={6}>
              <RemindersTile reminders={home.reminders} />
            </Col>
          </Row>
        )}
      </QueryState>
      <Typography.Paragraph type="secondary">
        <AlertOutlined aria-hidden="true" /> {t('helpLine')}{' '}
        <Link to="/dashboard/help#staff-home">{t('helpLink')}</Link>
      </Typography.Paragraph>
    </Space>
  );
}

import { Button, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate } from '../../../lib/i18n/format';
import { useSession } from '../../../lib/session/use-session';

/** The month whose forms 1-3 are due next (due on the 10th of the following month) and that due date. */
export function nextMonthlyDue(today: Date): { month: Date; due: Date } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  // Up to the 10th, last month's forms are due this month; after it, this month's forms are due next month.
  const reportMonth = today.getUTCDate() <= 10 ? new Date(Date.UTC(y, m - 1, 1)) : new Date(Date.UTC(y, m, 1));
  const due = new Date(Date.UTC(reportMonth.getUTCFullYear(), reportMonth.getUTCMonth() + 1, 10));
  return { month: reportMonth, due };
}

export default function DashboardHome() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { profile, isStaff } = useSession();
  useDocumentTitle(t('nav.dashboard'));
  const lang = i18n.language;
  const now = new Date();
  const { month, due } = nextMonthlyDue(new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())));
  const name = profile.userFirstName || profile.username;

  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {name ? t('dashboard.welcome', { name }) : t('dashboard.welcomeNoName')}
      </Typography.Title>
      {profile.handlerName ? (
        <Typography.Paragraph style={{ fontSize: 16 }}>{t('dashboard.handlerLine', { name: profile.handlerName, number: profile.handlerNumber ?? '' })}</Typography.Paragraph>
      ) : null}
      {isStaff ? <Typography.Paragraph style={{ fontSize: 16 }}>{t('dashboard.staffLine')}</Typography.Paragraph> : null}
      <Typography.Paragraph>
        {t('dashboard.today', { date: formatDate(now, lang, { dateStyle: 'full' }) })}{' '}
        {t('dashboard.nextDue', {
          month: formatDate(month, lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
          date: formatDate(due, lang, { dateStyle: 'long', timeZone: 'UTC' }),
        })}
      </Typography.Paragraph>
      <Typography.Paragraph>{t('dashboard.intro')}</Typography.Paragraph>
      <Button type="primary" onClick={() => navigate('/dashboard/help')}>
        {t('dashboard.openHelp')}
      </Button>
    </Card>
  );
}

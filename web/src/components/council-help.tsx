import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFeatureTranslation } from '../lib/i18n/feature-namespaces';

/** Help text key, menu label key (common namespace) and address of each page. */
const PAGES = [
  ['requests', 'nav.accountRequests', '/dashboard/council/account-requests'],
  ['handlers', 'nav.councilHandlers', '/dashboard/council/handler-companies'],
  ['users', 'nav.councilUsers', '/dashboard/council/users'],
  ['seasons', 'nav.councilSeasons', '/dashboard/council/seasons'],
] as const;

/**
 * The help page's "Council console" section, shown to staff: what each of the people and season pages does. Other
 * council pages can add their own entries after these.
 */
export default function CouncilHelp() {
  const { t } = useFeatureTranslation('councilAdmin');
  const { t: tc } = useTranslation();
  return (
    <section aria-labelledby="help-council">
      <Typography.Title level={2} id="help-council" style={{ fontSize: 20 }}>
        {t('help.title')}
      </Typography.Title>
      <Typography.Paragraph style={{ fontSize: 15, lineHeight: 1.7 }}>{t('help.intro')}</Typography.Paragraph>
      <ul style={{ fontSize: 15, lineHeight: 1.7, paddingInlineStart: 20 }}>
        {PAGES.map(([key, label, path]) => (
          <li key={key} style={{ marginBottom: 8 }}>
            <Link to={path}>{tc(label)}</Link>
            <br />
            {t(`help.${key}`)}
          </li>
        ))}
      </ul>
    </section>
  );
}

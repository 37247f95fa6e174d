import { Card, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useSession } from '../../../lib/session/use-session';

// Staff only: the council console's pages, in its own chunk and texts.
const CouncilHelp = lazy(() => import('../../../components/council-help'));
const StaffHomeHelp = lazy(() => import('../../../components/staff-home-help'));

const SECTIONS = [
  'monthly',
  'drafts',
  'import',
  'transfers',
  'countersign',
  'yearEnd',
  'certification',
  'amendments',
  'confidentiality',
  'account',
  'contact',
] as const;

/**
 * How filing works: monthly forms 1-3, form 4 transfers and their countersignature, form 5 year-end, certification,
 * amendments, confidentiality.
 */
export default function HelpPage() {
  const { t } = useTranslation();
  const { isStaff } = useSession();
  useDocumentTitle(t('nav.help'));
  return (
    <Card>
      <article style={{ maxWidth: 820 }}>
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          {t('help.title')}
        </Typography.Title>
        <Typography.Paragraph style={{ fontSize: 16 }}>{t('help.intro')}</Typography.Paragraph>
        {SECTIONS.map((s) => (
          <section key={s} aria-labelledby={`help-${s}`}>
            <Typography.Title level={2} id={`help-${s}`} style={{ fontSize: 20 }}>
              {t(`help.${s}Title`)}
            </Typography.Title>
            <Typography.Paragraph style={{ fontSize: 15, lineHeight: 1.7 }}>{t(`help.${s}Body`)}</Typography.Paragraph>
          </section>
        ))}
        <section aria-labelledby="help-api">
          <Typography.Title level={2} id="help-api" style={{ fontSize: 20 }}>
            {t('help.apiTitle')}
          </Typography.Title>
          <Typography.Paragraph style={{ fontSize: 15, lineHeight: 1.7 }}>
            {t('help.apiBody')} <Link to="/dashboard/help/api">{t('help.apiLink')}</Link>
          </Typography.Paragraph>
        </section>
        {isStaff ? (
          <Suspense fallback={null}>
            <StaffHomeHelp />
            <CouncilHelp />
          </Suspense>
        ) : null}
      </article>
    </Card>
  );
}

import { Typography } from 'antd';
import { useFeatureTranslation } from '../lib/i18n/feature-namespaces';

const POINTS = ['month', 'overdue', 'invoices', 'requests', 'amendments', 'reports', 'reminders'] as const;

/** The help page's section on the staff home, sending a reminder now and publishing a monthly report (staff only). */
export default function StaffHomeHelp() {
  const { t } = useFeatureTranslation('staffHome');
  return (
    <section aria-labelledby="staff-home">
      <Typography.Title level={2} id="staff-home" style={{ fontSize: 20 }}>
        {t('help.title')}
      </Typography.Title>
      <Typography.Paragraph style={{ fontSize: 15, lineHeight: 1.7 }}>{t('help.intro')}</Typography.Paragraph>
      <ul style={{ fontSize: 15, lineHeight: 1.7, paddingInlineStart: 20 }}>
        {POINTS.map((p) => (
          <li key={p} style={{ marginBottom: 6 }}>
            {t(`help.${p}`)}
          </li>
        ))}
      </ul>
      <Typography.Paragraph style={{ fontSize: 15, lineHeight: 1.7 }}>{t('help.remind')}</Typography.Paragraph>
      <Typography.Paragraph style={{ fontSize: 15, lineHeight: 1.7 }}>{t('help.publish')}</Typography.Paragraph>
    </section>
  );
}

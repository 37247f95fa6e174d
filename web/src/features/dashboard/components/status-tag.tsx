import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS, type FormDisplayStatus } from '../../../lib/portal/packages';

export function StatusTag({ status, justCertified }: { status: FormDisplayStatus; justCertified?: boolean }) {
  const { t } = useTranslation('filing');
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
      <Tag color={STATUS_COLORS[status]} style={{ marginInlineEnd: 0 }}>
        {t(`status.${status}`)}
      </Tag>
      {justCertified ? (
        <Tag color="gold" style={{ marginInlineEnd: 0 }}>
          {t('status.justCertified')}
        </Tag>
      ) : null}
    </span>
  );
}

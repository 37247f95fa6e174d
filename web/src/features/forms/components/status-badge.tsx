import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS, type FormDisplayStatus } from '../../../lib/portal/packages';

export function StatusBadge({ status }: { status: FormDisplayStatus }) {
  const { t } = useTranslation('filing');
  return <Tag color={STATUS_COLORS[status]}>{t(`status.${status}`)}</Tag>;
}

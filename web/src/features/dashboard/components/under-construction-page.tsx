import { ToolOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../components/use-document-title';

/** Says plainly that a data area is being built (the data pages come in a later step). */
export default function UnderConstructionPage({ areaKey }: { areaKey: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const area = t(areaKey);
  useDocumentTitle(area);
  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 24 }}>
        <ToolOutlined aria-hidden="true" style={{ marginInlineEnd: 12 }} />
        {t('construction.title', { area })}
      </Typography.Title>
      <Typography.Paragraph style={{ fontSize: 16, maxWidth: 720 }}>{t('construction.text')}</Typography.Paragraph>
      <Button onClick={() => navigate('/dashboard')}>{t('construction.back')}</Button>
    </Card>
  );
}

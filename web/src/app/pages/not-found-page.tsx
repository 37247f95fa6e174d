import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StatusPage } from '../../components/status-page';
import { useDocumentTitle } from '../../components/use-document-title';

export default function NotFoundPage({ embedded = false }: { embedded?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('errors.notFoundTitle'));
  return (
    <StatusPage
      standalone={!embedded}
      code="404"
      title={t('errors.notFoundTitle')}
      text={t('errors.notFoundText')}
      action={{ label: t('errors.backHome'), onClick: () => navigate('/') }}
    />
  );
}

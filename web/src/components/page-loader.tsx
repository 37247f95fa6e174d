import { theme } from 'antd';
import { useTranslation } from 'react-i18next';

/** The loading state of a lazy page: a 50 px circle spinning in the primary colour (plain CSS, no extra chunk). */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      role="status"
      aria-live="polite"
      style={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100vh' : 240 }}
    >
      <span
        className="portal-spinner"
        style={{ borderColor: `${token.colorPrimary} transparent ${token.colorPrimary} ${token.colorPrimary}` }}
        aria-hidden="true"
      />
      <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {t('app.loading')}
      </span>
    </div>
  );
}

import { BgColorsOutlined } from '@ant-design/icons';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, ConfigProvider, Layout, Space, theme as antdTheme } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { logout } from '../../lib/session/session';
import { useSession } from '../../lib/session/use-session';
import { useThemeSettings } from '../../lib/theme/theme-context';
import { barColors } from '../../lib/theme/themes';

const ThemeDrawer = lazy(() => import('../../features/settings/components/theme-drawer'));
// The account menu's dropdown is loaded on the first click on the account button, not with the page.
const UserMenu = lazy(() => import('./user-menu'));

export function Topbar({ toggle, compact }: { toggle: ReactNode; compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const { settings } = useThemeSettings();
  const bar = barColors(settings.topbar, settings.dark);
  const [themeOpen, setThemeOpen] = useState(false);
  const [menuUsed, setMenuUsed] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const name = profile.userFirstName || profile.username || '';

  const onLogout = async () => {
    await logout();
    queryClient.clear();
    navigate('/', { replace: true });
  };

  const onPick = (key: string) => {
    if (key === 'profile') navigate('/dashboard/my-profile');
    else if (key === 'help') navigate('/dashboard/help');
    else if (key === 'logout') void onLogout();
  };

  // Inside the dropdown, the dropdown handles the click; before it is loaded, the click loads it, opened.
  const accountButton = (onClick?: () => void) => (
    <Button type="text" icon={<UserOutlined />} aria-label={t('topbar.account', { name })} onClick={onClick}>
      {compact ? null : name}
    </Button>
  );

  return (
    <Layout.Header
      style={{
        background: bar.bg,
        color: bar.text,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        paddingInline: compact ? 8 : 16,
        borderBottom: bar.light ? '1px solid rgba(0,0,0,0.06)' : 'none',
        position: 'sticky',
        top: 0,
        zIndex: 10,
      }}
    >
      {/* The bar's own colours: dark bars get the dark algorithm so text buttons stay readable. */}
      <ConfigProvider theme={{ algorithm: bar.light ? antdTheme.defaultAlgorithm : antdTheme.darkAlgorithm, token: { colorText: bar.text, colorBgContainer: bar.light ? '#ffffff' : 'rgba(255,255,255,0.08)' } }}>
        {toggle}
        <div style={{ flex: 1, minWidth: 0, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', fontWeight: 600 }}>
          {/* <bdi>: a Latin company name keeps its full stop at its end inside right-to-left text. */}
          <bdi>{profile.handlerName ?? (compact ? '' : t('app.council'))}</bdi>
        </div>
        <Space size={compact ? 2 : 8}>
          <LanguageSwitcher style={compact ? { minWidth: 96 } : undefined} />
          <Button type="text" aria-label={t('topbar.themeSettings')} title={t('topbar.themeSettings')} icon={<BgColorsOutlined />} onClick={() => setThemeOpen(true)} />
          {compact ? null : (
            <Button type="text" icon={<QuestionCircleOutlined />} onClick={() => navigate('/dashboard/help')}>
              {t('topbar.help')}
            </Button>
          )}
          {menuUsed ? (
            <Suspense fallback={accountButton(() => undefined)}>
              <UserMenu open={menuOpen} onOpenChange={setMenuOpen} onPick={onPick}>
                {accountButton()}
              </UserMenu>
            </Suspense>
          ) : (
            accountButton(() => {
              setMenuUsed(true);
              setMenuOpen(true);
            })
          )}
        </Space>
      </ConfigProvider>
      {themeOpen ? (
        <Suspense fallback={null}>
          <ThemeDrawer open={themeOpen} onClose={() => setThemeOpen(false)} />
        </Suspense>
      ) : null}
    </Layout.Header>
  );
}

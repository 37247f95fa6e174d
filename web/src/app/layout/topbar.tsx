import { BgColorsOutlined } from '@ant-design/icons';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, ConfigProvider, Layout, Space } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { logout } from '../../lib/session/session';
import { useSession } from '../../lib/session/use-session';
import { useThemeSettings } from '../../lib/theme/theme-context';
import { barColors, barTheme } from '../../lib/theme/themes';

const ThemeDrawer = lazy(() => import('../../features/settings/components/theme-drawer'));
// The account menu's dropdown is not part of the page's first load: it is fetched once the page is up (or on the
// first click, whichever comes first). It is kept in state rather than behind React.lazy: a Suspense fallback would
// be a dead button for at least React's 300 ms reveal delay, and a tap on it would be lost.
const loadUserMenu = () => import('./user-menu');
type UserMenuComponent = Awaited<ReturnType<typeof loadUserMenu>>['default'];

export function Topbar({ toggle, compact }: { toggle: ReactNode; compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const { settings } = useThemeSettings();
  const bar = useMemo(() => barColors(settings.topbar, settings.dark), [settings.topbar, settings.dark]);
  const theme = useMemo(() => barTheme(bar), [bar]);
  const [themeOpen, setThemeOpen] = useState(false);
  const [UserMenu, setUserMenu] = useState<UserMenuComponent | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const name = profile.userFirstName || profile.username || '';

  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () =>
        void loadUserMenu().then(
          (m) => live && setUserMenu(() => m.default),
          () => undefined,
        ),
      1000,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);

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
      {/* The bar's own colours. Memoised: a new theme object would make antd hash the tokens again at each render. */}
      <ConfigProvider theme={theme}>
        {toggle}
        <div style={{ flex: 1, minWidth: 0, whiteSpace: 'nowrap', fontWeight: 600 }}>
          {/* <bdi dir="auto">: a company name is cut at its own end in its own direction (a Latin name in Arabic was
              cut at its start, '…end Pecan Co.') and keeps its full stop at its end; inline-block keeps it on the
              side where the page starts. */}
          <bdi
            dir="auto"
            style={{
              display: 'inline-block',
              maxWidth: '100%',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              verticalAlign: 'middle',
            }}
          >
            {profile.handlerName ?? (compact ? '' : t('app.council'))}
          </bdi>
        </div>
        <Space size={compact ? 2 : 8}>
          <LanguageSwitcher style={compact ? { minWidth: 96 } : undefined} />
          <Button
            type="text"
            aria-label={t('topbar.themeSettings')}
            title={t('topbar.themeSettings')}
            icon={<BgColorsOutlined />}
            onClick={() => setThemeOpen(true)}
          />
          {compact ? null : (
            <Button type="text" icon={<QuestionCircleOutlined />} onClick={() => navigate('/dashboard/help')}>
              {t('topbar.help')}
            </Button>
          )}
          {UserMenu ? (
            <UserMenu open={menuOpen} onOpenChange={setMenuOpen} onPick={onPick}>
              {accountButton()}
            </UserMenu>
          ) : (
            // Opened in a later task: mounted during this click, the dropdown would take the click's own bubbling
            // for a click outside it and close at once.
            accountButton(
              () =>
                void loadUserMenu().then(
                  (m) =>
                    setTimeout(() => {
                      setUserMenu(() => m.default);
                      setMenuOpen(true);
                    }),
                  () => undefined,
                ),
            )
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

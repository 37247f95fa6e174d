import { MenuFoldOutlined } from '@ant-design/icons';
import { MenuOutlined } from '@ant-design/icons';
import { MenuUnfoldOutlined } from '@ant-design/icons';
import { App as AntdApp, Button, Layout } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { syncDayjsLocale } from '../../lib/i18n/antd-locale';
import { languageInfo } from '../../lib/i18n/languages';
import { useSession } from '../../lib/session/use-session';
import { useThemeSettings } from '../../lib/theme/theme-context';
import { barColors } from '../../lib/theme/themes';
import { PecanMark } from './brand';
import { SidebarMenu } from './sidebar-menu';
import { Topbar } from './topbar';
import { useViewport } from '../../components/use-viewport';

const SIDER_WIDTH = 248;
// Only phones open the menu in a drawer, and only on a tap: its code is not part of the first load.
const MobileMenuDrawer = lazy(() => import('./mobile-menu-drawer'));

export default function DashboardLayout() {
  const { t, i18n } = useTranslation();
  const { mode, width } = useViewport();
  const { isStaff, profile } = useSession();
  // A user of no handler (council staff) sees no handler-only entries.
  const hasHandler = !!profile.handlerUid;
  const { settings } = useThemeSettings();
  const side = barColors(settings.sidebar, settings.dark);
  const language = languageInfo(i18n.resolvedLanguage ?? i18n.language);
  const rtl = language.dir === 'rtl';
  // The sidebar is collapsed unless the window is wider than 1220 px; it follows the window across that line.
  const [collapsed, setCollapsed] = useState(width <= 1220);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Mounted from the first opening on, so it can animate closed.
  const [drawerUsed, setDrawerUsed] = useState(false);
  const { pathname } = useLocation();

  useEffect(() => setCollapsed(mode !== 'desktop'), [mode]);
  // Date pickers of the data pages follow the language (dayjs is loaded with the signed-in area only).
  useEffect(() => void syncDayjsLocale(language.code).catch(() => undefined), [language.code]);
  useEffect(() => setDrawerOpen(false), [pathname, mode]);

  const brand = (showName: boolean) => (
    <div className="portal-brand" style={{ color: side.text }}>
      <PecanMark />
      {showName ? <span>{t('app.name')}</span> : null}
    </div>
  );

  const toggle =
    mode === 'mobile' ? (
      <Button
        type="text"
        aria-label={t('nav.openMenu')}
        aria-expanded={drawerOpen}
        icon={<MenuOutlined />}
        onClick={() => {
          setDrawerUsed(true);
          setDrawerOpen(true);
        }}
      />
    ) : (
      <Button
        type="text"
        aria-label={collapsed ? t('nav.expandMenu') : t('nav.collapseMenu')}
        aria-expanded={!collapsed}
        icon={collapsed !== rtl ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => setCollapsed((c) => !c)}
      />
    );

  return (
    <AntdApp>
      <Layout style={{ minHeight: '100vh' }}>
        <a className="skip-link" href="#main-content">
          {t('app.skipToContent')}
        </a>
        {mode === 'mobile' ? (
          drawerUsed ? (
            <Suspense fallback={null}>
              <MobileMenuDrawer
                open={drawerOpen}
                onClose={() => setDrawerOpen(false)}
                rtl={rtl}
                width={SIDER_WIDTH + 24}
                background={side.bg}
                label={t('nav.mainMenu')}
              >
                <nav aria-label={t('nav.mainMenu')}>
                  {brand(true)}
                  <SidebarMenu
                    isStaff={isStaff}
                    hasHandler={hasHandler}
                    collapsed={false}
                    light={side.light}
                    onNavigate={() => setDrawerOpen(false)}
                  />
                </nav>
              </MobileMenuDrawer>
            </Suspense>
          ) : null
        ) : (
          <Layout.Sider
            width={SIDER_WIDTH}
            collapsedWidth={80}
            collapsed={collapsed}
            trigger={null}
            style={{ background: side.bg, position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
          >
            <nav aria-label={t('nav.mainMenu')}>
              {brand(!collapsed)}
              <SidebarMenu isStaff={isStaff} hasHandler={hasHandler} collapsed={collapsed} light={side.light} />
            </nav>
          </Layout.Sider>
        )}
        <Layout>
          <Topbar toggle={toggle} compact={mode === 'mobile'} />
          <Layout.Content
            id="main-content"
            tabIndex={-1}
            style={{ padding: mode === 'mobile' ? 12 : 24, outline: 'none' }}
          >
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
        </Layout>
      </Layout>
    </AntdApp>
  );
}

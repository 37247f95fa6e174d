import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { DASHBOARD_AREAS, areaHref, mainAreas, menuStateFromPath } from './menu-items';
import { MENU_ICONS } from './menu-icons';

type Item = Required<MenuProps>['items'][number];

export function SidebarMenu({
  isStaff,
  hasHandler = true,
  collapsed,
  light,
  onNavigate,
}: {
  isStaff: boolean;
  hasHandler?: boolean;
  collapsed: boolean;
  light: boolean;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const state = menuStateFromPath(pathname);
  // Staff of no handler work in the council's group: it starts open.
  const [openKeys, setOpenKeys] = useState<string[]>(
    isStaff && !hasHandler ? [...new Set([...state.openKeys, 'council'])] : state.openKeys,
  );

  // The open group follows the path whenever the path changes.
  useEffect(() => {
    setOpenKeys((keys) => Array.from(new Set([...keys, ...menuStateFromPath(pathname).openKeys])));
  }, [pathname]);

  const items = useMemo<Item[]>(() => {
    const main: Item[] = mainAreas(hasHandler).map((a) => ({
      key: a.key,
      icon: MENU_ICONS[a.icon],
      label: t(a.labelKey),
    }));
    if (isStaff) {
      main.push({
        key: 'council',
        icon: MENU_ICONS.council,
        label: t('nav.council'),
        children: DASHBOARD_AREAS.filter((a) => a.group === 'council').map((a) => ({
          key: a.key,
          icon: MENU_ICONS[a.icon],
          label: t(a.labelKey),
        })),
      });
    }
    return main;
  }, [isStaff, hasHandler, t]);

  return (
    <Menu
      mode="inline"
      theme={light ? 'light' : 'dark'}
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={state.selectedKey ? [state.selectedKey] : []}
      openKeys={collapsed ? undefined : openKeys}
      onOpenChange={(keys) => setOpenKeys(keys as string[])}
      onClick={({ key }) => {
        const area = DASHBOARD_AREAS.find((a) => a.key === key);
        if (area) navigate(areaHref(area));
        onNavigate?.();
      }}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
    />
  );
}

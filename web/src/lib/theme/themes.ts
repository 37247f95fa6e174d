import type { ThemeConfig } from 'antd';
import { theme as antdTheme } from 'antd';
import { readableComponents, readableTokens } from './readable-colors';

export type ColorThemeId = 1 | 2 | 3 | 4 | 5 | 6 | 7;
export type LayoutThemeId = 1 | 2 | 3;

export interface ThemeSettings {
  /** 'default' (Council blue) or 'custom' (pecan brown, rounder corners). */
  preset: 'default' | 'custom';
  topbar: ColorThemeId;
  sidebar: ColorThemeId;
  layout: LayoutThemeId;
  dark: boolean;
}

export const DEFAULT_THEME: ThemeSettings = { preset: 'default', topbar: 1, sidebar: 2, layout: 1, dark: false };
export const THEME_STORAGE_KEY = 'portal_theme';
export const COLOR_THEME_IDS: ColorThemeId[] = [1, 2, 3, 4, 5, 6, 7];
export const LAYOUT_THEME_IDS: LayoutThemeId[] = [1, 2, 3];

export interface BarColors {
  /** Background of the bar. */
  bg: string;
  /** Text and icon colour; chosen for a contrast ratio of at least 4.5:1 on `bg`. */
  text: string;
  /** Background of the current menu entry and its text. */
  selectedBg: string;
  selectedText: string;
  hoverBg: string;
  /** Whether the bar is light (antd Menu theme 'light') or dark. */
  light: boolean;
}

/** Topbar and sidebar colour themes 1-7. Theme 1 is light; 2-7 are dark with white text. */
export const BAR_COLORS: Record<ColorThemeId, BarColors> = {
  1: {
    bg: '#ffffff',
    text: '#1f1f1f',
    selectedBg: '#e6f4ff',
    selectedText: '#003eb3',
    hoverBg: '#f0f0f0',
    light: true,
  },
  2: {
    bg: '#001529',
    text: '#ffffff',
    selectedBg: '#0958d9',
    selectedText: '#ffffff',
    hoverBg: '#0c2a4a',
    light: false,
  },
  3: {
    bg: '#4a2c12',
    text: '#ffffff',
    selectedBg: '#7a4a1f',
    selectedText: '#ffffff',
    hoverBg: '#5e3918',
    light: false,
  },
  4: {
    bg: '#12372a',
    text: '#ffffff',
    selectedBg: '#1f6a4f',
    selectedText: '#ffffff',
    hoverBg: '#1a4a39',
    light: false,
  },
  5: {
    bg: '#3b1f5c',
    text: '#ffffff',
    selectedBg: '#5e3591',
    selectedText: '#ffffff',
    hoverBg: '#4a2873',
    light: false,
  },
  6: {
    bg: '#7a1030',
    text: '#ffffff',
    selectedBg: '#a8173f',
    selectedText: '#ffffff',
    hoverBg: '#8e1538',
    light: false,
  },
  7: {
    bg: '#1f2937',
    text: '#ffffff',
    selectedBg: '#374151',
    selectedText: '#ffffff',
    hoverBg: '#2b3645',
    light: false,
  },
};

/** Layout themes 1-3: the page background behind the content. */
export const LAYOUT_BACKGROUNDS: Record<LayoutThemeId, { light: string; dark: string }> = {
  1: { light: '#f5f5f5', dark: '#000000' },
  2: { light: '#ffffff', dark: '#141414' },
  3: { light: '#f7f1e8', dark: '#1b1611' },
};

/** Colours with at least 4.5:1 against white text (buttons) and against the page (links). */
const PRIMARY = {
  default: { light: '#0958d9', dark: '#1554ad', linkDark: '#69b1ff' },
  custom: { light: '#8a4b14', dark: '#8a4b14', linkDark: '#e0a86a' },
} as const;

export function barColors(id: ColorThemeId, dark: boolean): BarColors {
  // In dark mode a light bar would glare: theme 1 becomes the dark surface.
  if (dark && id === 1)
    return {
      bg: '#141414',
      text: '#ffffff',
      selectedBg: '#1554ad',
      selectedText: '#ffffff',
      hoverBg: '#262626',
      light: false,
    };
  return BAR_COLORS[id];
}

/** The theme inside a bar (the topbar): dark bars get the dark algorithm so text buttons stay readable. */
export function barTheme(bar: BarColors): ThemeConfig {
  return {
    algorithm: bar.light ? antdTheme.defaultAlgorithm : antdTheme.darkAlgorithm,
    token: { colorText: bar.text, colorBgContainer: bar.light ? '#ffffff' : 'rgba(255,255,255,0.08)' },
  };
}

export function buildAntdTheme(s: ThemeSettings): ThemeConfig {
  const p = PRIMARY[s.preset];
  const side = barColors(s.sidebar, s.dark);
  const menuTokens = side.light
    ? {
        itemBg: side.bg,
        itemColor: side.text,
        itemSelectedBg: side.selectedBg,
        itemSelectedColor: side.selectedText,
        itemHoverBg: side.hoverBg,
        subMenuItemBg: side.bg,
        groupTitleColor: '#595959',
      }
    : {
        darkItemBg: side.bg,
        darkSubMenuItemBg: side.bg,
        darkPopupBg: side.bg,
        darkItemColor: side.text,
        darkItemHoverColor: '#ffffff',
        darkItemHoverBg: side.hoverBg,
        darkItemSelectedBg: side.selectedBg,
        darkItemSelectedColor: side.selectedText,
        darkGroupTitleColor: 'rgba(255,255,255,0.85)',
      };
  return {
    algorithm: s.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: s.dark ? p.dark : p.light,
      colorLink: s.dark ? p.linkDark : p.light,
      colorInfo: s.dark ? p.dark : p.light,
      borderRadius: s.preset === 'custom' ? 10 : 6,
      colorBgLayout: LAYOUT_BACKGROUNDS[s.layout][s.dark ? 'dark' : 'light'],
      // Secondary text at antd's default 45% alpha is below 4.5:1; darken it.
      colorTextTertiary: s.dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.62)',
      colorTextDescription: s.dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.62)',
      colorTextPlaceholder: s.dark ? 'rgba(255,255,255,0.55)' : 'rgba(0,0,0,0.55)',
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans SC', 'Helvetica Neue', Arial, sans-serif",
      ...readableTokens(s.preset, s.dark),
    },
    components: {
      ...readableComponents(s.preset, s.dark),
      Menu: menuTokens,
      Layout: { siderBg: side.bg, triggerBg: side.hoverBg, headerPadding: '0 16px' },
    },
  };
}

export function parseThemeSettings(raw: string | null): ThemeSettings {
  if (!raw) return DEFAULT_THEME;
  try {
    const v = JSON.parse(raw) as Partial<ThemeSettings>;
    const color = (x: unknown, d: ColorThemeId): ColorThemeId =>
      COLOR_THEME_IDS.includes(x as ColorThemeId) ? (x as ColorThemeId) : d;
    return {
      preset: v.preset === 'custom' ? 'custom' : 'default',
      topbar: color(v.topbar, DEFAULT_THEME.topbar),
      sidebar: color(v.sidebar, DEFAULT_THEME.sidebar),
      layout: LAYOUT_THEME_IDS.includes(v.layout as LayoutThemeId) ? (v.layout as LayoutThemeId) : DEFAULT_THEME.layout,
      dark: v.dark === true,
    };
  } catch {
    return DEFAULT_THEME;
  }
}

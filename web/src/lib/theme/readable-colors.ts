import type { ThemeConfig } from 'antd';

/**
 * Text colours that reach WCAG AA (4.5:1) on the portal's backgrounds, set over what antd's algorithms derive.
 *
 * antd derives hover and text shades from a seed colour by making them lighter (light theme) or darker (dark theme),
 * which puts its danger red (#ff4d4f, 3.3:1 on white), the success and warning texts, the hover colour of links and
 * link buttons, and several tag colours (gold, green, orange...) below 4.5:1. These are map tokens, so setting them
 * here replaces the derived value everywhere antd uses it. contrast.test.ts checks every pair in both themes.
 */

type Tokens = NonNullable<ThemeConfig['token']>;

/** Danger, warning and success text. Hover and active shades go further from the background, never closer. */
const STATUS: Record<'light' | 'dark', Tokens> = {
  light: {
    colorError: '#cf1322',
    colorErrorHover: '#a8071a',
    colorErrorActive: '#820014',
    colorErrorText: '#cf1322',
    colorErrorTextHover: '#a8071a',
    colorErrorTextActive: '#820014',
    colorWarningText: '#874d00',
    colorWarningTextHover: '#613400',
    colorWarningTextActive: '#613400',
    colorSuccessText: '#237804',
    colorSuccessTextHover: '#135200',
    colorSuccessTextActive: '#135200',
  },
  // On dark surfaces text must be light, so solid danger buttons (white text in antd) get dark text instead: see
  // DARK_COMPONENTS.
  dark: {
    colorError: '#ff7875',
    colorErrorHover: '#ffa39e',
    colorErrorActive: '#ff4d4f',
    colorErrorText: '#ff7875',
    colorErrorTextHover: '#ffa39e',
    colorErrorTextActive: '#ff4d4f',
    colorWarningText: '#e8b339',
    colorWarningTextHover: '#f3cc62',
    colorWarningTextActive: '#f3cc62',
    colorSuccessText: '#6abe39',
    colorSuccessTextHover: '#8fd460',
    colorSuccessTextActive: '#8fd460',
  },
};

/**
 * Link and primary hover shades per preset: darker than the link in the light theme, lighter in the dark one. (The
 * link colour itself is a seed, set in themes.ts: antd derives it and ignores an override.)
 */
const LINK: Record<'default' | 'custom', Record<'light' | 'dark', Tokens>> = {
  default: {
    light: {
      colorLinkHover: '#003eb3',
      colorLinkActive: '#002c8c',
      colorPrimaryHover: '#003eb3',
      colorPrimaryTextHover: '#003eb3',
    },
    dark: {
      colorLinkHover: '#91caff',
      colorLinkActive: '#4096ff',
      colorPrimaryText: '#69b1ff',
      colorPrimaryTextHover: '#91caff',
      colorPrimaryTextActive: '#4096ff',
    },
  },
  custom: {
    light: {
      colorLinkHover: '#633009',
      colorLinkActive: '#4a2306',
      colorPrimaryHover: '#633009',
      colorPrimaryTextHover: '#633009',
    },
    dark: {
      colorLinkHover: '#f0c896',
      colorLinkActive: '#d4a373',
      colorPrimaryText: '#e0a86a',
      colorPrimaryTextHover: '#f0c896',
      colorPrimaryTextActive: '#d4a373',
    },
  },
};

/**
 * Tag text (antd colours a tag's text with `<colour>7` on `<colour>1`): one or two steps darker (light) or lighter
 * (dark) where the default is below 4.5:1. The values are antd's own palette steps.
 */
const TAG_TEXT: Record<'light' | 'dark', Tokens> = {
  light: {
    volcano7: '#ad2102',
    orange7: '#ad4e00',
    gold7: '#874d00',
    yellow7: '#876800',
    lime7: '#3f6600',
    green7: '#237804',
    cyan7: '#006d75',
  },
  dark: { red7: '#f37370', geekblue7: '#7f9ef3', purple7: '#ab7ae0', blue7: '#65a9f3', magenta7: '#f37fb7' },
};

export function readableTokens(preset: 'default' | 'custom', dark: boolean): Tokens {
  const mode = dark ? 'dark' : 'light';
  return { ...STATUS[mode], ...LINK[preset][mode], ...TAG_TEXT[mode] };
}

/**
 * Status tags (success, warning...) take their text from the seed colours (#52c41a, #faad14), meant for icons and
 * borders: within a tag they get the readable text shade instead.
 */
const STATUS_TAG: Record<'light' | 'dark', Tokens> = {
  light: { colorSuccess: '#237804', colorWarning: '#874d00', colorError: '#cf1322' },
  dark: { colorSuccess: '#6abe39', colorWarning: '#e8b339', colorError: '#ff7875' },
};

/**
 * Component tokens: status tags as above; in the dark theme a solid danger button is light red, so its text is dark,
 * and the active tab uses the readable link blue rather than the button blue.
 */
export function readableComponents(preset: 'default' | 'custom', dark: boolean): ThemeConfig['components'] {
  if (!dark) return { Tag: { ...STATUS_TAG.light, colorInfo: LINK[preset].light.colorLinkHover } };
  const link = LINK[preset].dark;
  return {
    Tag: { ...STATUS_TAG.dark, colorInfo: link.colorPrimaryText },
    Button: { dangerColor: 'rgba(0,0,0,0.88)' },
    Tabs: {
      itemSelectedColor: link.colorPrimaryText,
      itemHoverColor: link.colorLinkHover,
      itemActiveColor: link.colorLinkActive,
    },
  };
}

import { theme, type ThemeConfig } from 'antd';
import { describe, expect, test } from 'vitest';
import { contrastRatio } from './contrast';
import { buildAntdTheme, DEFAULT_THEME, LAYOUT_BACKGROUNDS, LAYOUT_THEME_IDS, type ThemeSettings } from './themes';

type Tokens = Record<string, string>;

const tokensOf = (config: ThemeConfig) => theme.getDesignToken(config) as unknown as Tokens;

/** Text colours antd paints on the page, a card, a modal or a table row: each must reach 4.5:1 on all of them. */
const TEXT_ON_SURFACES = [
  'colorText',
  'colorTextSecondary',
  'colorTextDescription',
  'colorError',
  'colorErrorHover',
  'colorErrorActive',
  'colorErrorText',
  'colorErrorTextHover',
  'colorErrorTextActive',
  'colorWarningText',
  'colorSuccessText',
  'colorLink',
  'colorLinkHover',
  'colorLinkActive',
  'colorPrimaryText',
  'colorPrimaryTextHover',
];

/** antd's preset tag colours: text `<colour>7` on `<colour>1`. */
const TAG_COLOURS = [
  'red',
  'volcano',
  'orange',
  'gold',
  'yellow',
  'lime',
  'green',
  'cyan',
  'blue',
  'geekblue',
  'purple',
  'magenta',
];

const SETTINGS: ThemeSettings[] = (['default', 'custom'] as const).flatMap((preset) =>
  [false, true].flatMap((dark) => LAYOUT_THEME_IDS.map((layout) => ({ ...DEFAULT_THEME, preset, dark, layout }))),
);

describe.each(SETTINGS)('theme %o', (s) => {
  const config = buildAntdTheme(s);
  const t = tokensOf(config);
  const surfaces = [t.colorBgContainer!, t.colorBgElevated!, LAYOUT_BACKGROUNDS[s.layout][s.dark ? 'dark' : 'light']];

  test.each(TEXT_ON_SURFACES)('%s reaches 4.5:1 on the page, cards and modals', (key) => {
    for (const bg of surfaces)
      expect(contrastRatio(t[key]!, bg), `${key} ${t[key]} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  test.each(TAG_COLOURS)('a %s tag reaches 4.5:1', (c) => {
    expect(contrastRatio(t[`${c}7`]!, t[`${c}1`]!), `${t[`${c}7`]} on ${t[`${c}1`]}`).toBeGreaterThanOrEqual(4.5);
  });

  test.each(['Success', 'Warning', 'Error', 'Info'])('a %s status tag reaches 4.5:1', (status) => {
    const tag = { ...t, ...(config.components?.Tag as Tokens | undefined) };
    const text = tag[`color${status}`]!;
    expect(contrastRatio(text, t[`color${status}Bg`]!), `${text} on ${t[`color${status}Bg`]}`).toBeGreaterThanOrEqual(
      4.5,
    );
  });

  test('solid buttons: their text reaches 4.5:1 at rest, hovered and pressed', () => {
    const button = tokensOf({ ...config, token: { ...config.token, ...config.components?.Button } });
    const danger = (config.components?.Button as Tokens | undefined)?.dangerColor ?? t.colorTextLightSolid!;
    for (const bg of [t.colorPrimary!, t.colorPrimaryHover!, t.colorPrimaryActive!])
      expect(contrastRatio(t.colorTextLightSolid!, bg), `white on ${bg}`).toBeGreaterThanOrEqual(4.5);
    for (const bg of [button.colorError!, button.colorErrorHover!, button.colorErrorActive!])
      expect(contrastRatio(danger, bg), `${danger} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  test('a danger text button hovered over its pale background still reaches 4.5:1', () => {
    expect(contrastRatio(t.colorErrorHover!, t.colorErrorBg!)).toBeGreaterThanOrEqual(4.5);
  });
});

test('the ratio itself: black on white is 21:1, a colour on itself 1:1, translucent text is blended', () => {
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrastRatio('#ff4d4f', '#ff4d4f')).toBe(1);
  expect(contrastRatio('#ff4d4f', '#ffffff')).toBeLessThan(4.5);
  expect(contrastRatio('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(contrastRatio('#8c8c8c', '#ffffff'), 1);
});

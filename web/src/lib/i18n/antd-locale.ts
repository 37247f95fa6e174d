import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import type { LanguageCode } from './languages';

/** Ant Design's locale per language; English is bundled, the others load with the language. */
const loaders: Record<Exclude<LanguageCode, 'en'>, () => Promise<{ default: Locale }>> = {
  zh: () => import('antd/es/locale/zh_CN'),
  es: () => import('antd/es/locale/es_ES'),
  fr: () => import('antd/es/locale/fr_FR'),
  it: () => import('antd/es/locale/it_IT'),
  sa: () => import('antd/es/locale/ar_EG'),
};

const dayjsLoaders: Record<Exclude<LanguageCode, 'en'>, () => Promise<unknown>> = {
  zh: () => import('dayjs/locale/zh-cn'),
  es: () => import('dayjs/locale/es'),
  fr: () => import('dayjs/locale/fr'),
  it: () => import('dayjs/locale/it'),
  sa: () => import('dayjs/locale/ar'),
};

const dayjsNames: Record<LanguageCode, string> = { en: 'en', zh: 'zh-cn', es: 'es', fr: 'fr', it: 'it', sa: 'ar' };

/** Ant Design's strings for a language (2 KB each). dayjs is not touched here: see syncDayjsLocale. */
export async function loadAntdLocale(code: LanguageCode): Promise<Locale> {
  if (code === 'en') return enUS;
  return (await loaders[code]()).default;
}

/**
 * dayjs (date pickers) in the language. Called by the signed-in area's layout, not by the providers, so the
 * signed-out pages (which have no dates) do not load dayjs and its locales: /signin stays under its budget.
 * A page with a date picker imports dayjs itself; it starts in English.
 */
let dayjsTouched = false;

export async function syncDayjsLocale(code: LanguageCode): Promise<void> {
  // dayjs speaks English until told otherwise: in English nothing needs loading (3 KB less on the dashboard).
  if (code === 'en' && !dayjsTouched) return;
  dayjsTouched = true;
  const { default: dayjs } = await import('dayjs');
  if (code !== 'en') await dayjsLoaders[code]();
  dayjs.locale(dayjsNames[code]);
}

export { enUS };

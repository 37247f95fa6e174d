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

let dayjsLoaded = false;

export async function loadAntdLocale(code: LanguageCode): Promise<Locale> {
  if (code === 'en') {
    // dayjs is only loaded once a page needs it (or another language did); put it back to English then.
    if (dayjsLoaded) (await import('dayjs')).default.locale('en');
    return enUS;
  }
  dayjsLoaded = true;
  const [mod, { default: dayjs }] = await Promise.all([loaders[code](), import('dayjs'), dayjsLoaders[code]()]);
  dayjs.locale(dayjsNames[code]);
  return mod.default;
}

export { enUS };

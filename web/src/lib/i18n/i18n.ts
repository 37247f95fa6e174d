import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en/common.json';
import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, isLanguageCode, languageInfo, type LanguageCode } from './languages';

/** English is bundled; the other languages are loaded on demand (one chunk each). */
const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*/common.json');

function storedLanguage(): LanguageCode {
  try {
    const v = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguageCode(v)) return v;
  } catch {
    /* storage refused */
  }
  return DEFAULT_LANGUAGE;
}

export function applyDocumentLanguage(code: string): void {
  const info = languageInfo(code);
  document.documentElement.lang = info.htmlLang;
  document.documentElement.dir = info.dir;
}

async function ensureLoaded(code: LanguageCode): Promise<void> {
  if (i18n.hasResourceBundle(code, 'common')) return;
  const loader = loaders[`../../locales/${code}/common.json`];
  if (!loader) return;
  const mod = await loader();
  i18n.addResourceBundle(code, 'common', mod.default, true, true);
}

export async function initI18n(): Promise<typeof i18n> {
  const initial = storedLanguage();
  await i18n.use(initReactI18next).init({
    resources: { en: { common: en } },
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['en', 'zh', 'es', 'fr', 'it', 'sa'],
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    // Re-render on a bundle added too, not only on a language change: a page's namespace in a new language arrives
    // after 'languageChanged', and a page already on screen (its texts fallen back to English) must take it up.
    react: { bindI18nStore: 'added' },
  });
  if (initial !== DEFAULT_LANGUAGE) await changeLanguage(initial);
  else applyDocumentLanguage(DEFAULT_LANGUAGE);
  return i18n;
}

export async function changeLanguage(code: LanguageCode): Promise<void> {
  await ensureLoaded(code);
  await i18n.changeLanguage(code);
  applyDocumentLanguage(code);
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    /* storage refused */
  }
}

export { i18n };

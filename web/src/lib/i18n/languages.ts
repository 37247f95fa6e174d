export type LanguageCode = 'en' | 'zh' | 'es' | 'fr' | 'it' | 'sa';

export interface LanguageInfo {
  code: LanguageCode;
  /** Name of the language in itself, for the switcher. */
  nativeName: string;
  /** The `lang` attribute of <html>. */
  htmlLang: string;
  dir: 'ltr' | 'rtl';
  /** Locale for Intl (dates, numbers, money); Gregorian calendar everywhere, as the reporting dates are. */
  intl: string;
}

export const LANGUAGES: readonly LanguageInfo[] = [
  { code: 'en', nativeName: 'English', htmlLang: 'en', dir: 'ltr', intl: 'en-US' },
  { code: 'zh', nativeName: '中文', htmlLang: 'zh', dir: 'ltr', intl: 'zh-CN' },
  { code: 'es', nativeName: 'Español', htmlLang: 'es', dir: 'ltr', intl: 'es-ES' },
  { code: 'fr', nativeName: 'Français', htmlLang: 'fr', dir: 'ltr', intl: 'fr-FR' },
  { code: 'it', nativeName: 'Italiano', htmlLang: 'it', dir: 'ltr', intl: 'it-IT' },
  { code: 'sa', nativeName: 'العربية', htmlLang: 'ar', dir: 'rtl', intl: 'ar-u-ca-gregory' },
];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';
export const LANGUAGE_STORAGE_KEY = 'portal_language';

export function languageInfo(code: string | undefined | null): LanguageInfo {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0];
}

export function isLanguageCode(code: unknown): code is LanguageCode {
  return typeof code === 'string' && LANGUAGES.some((l) => l.code === code);
}

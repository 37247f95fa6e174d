import countries from 'i18n-iso-countries';
import ar from 'i18n-iso-countries/langs/ar.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import fr from 'i18n-iso-countries/langs/fr.json' with { type: 'json' };
import it from 'i18n-iso-countries/langs/it.json' with { type: 'json' };
import zh from 'i18n-iso-countries/langs/zh.json' with { type: 'json' };

/**
 * ISO 3166-1 alpha-2 country codes with their names, from i18n-iso-countries (kept current with ISO changes).
 * Browser-safe: the package's browser entry registers no locale, so we register just the portal's six languages
 * here (English, Chinese, Spanish, French, Italian, Arabic) instead of bundling its ~80. In Node the package has
 * them all already; registering again is harmless.
 *
 * The list also holds XK (Kosovo), a user-assigned code that the EU and many customs systems use; it is kept so an
 * export to Kosovo can be reported.
 */
export const COUNTRY_LANGUAGES = ['en', 'zh', 'es', 'fr', 'it', 'ar'] as const;
export type CountryLanguage = (typeof COUNTRY_LANGUAGES)[number];

for (const locale of [en, zh, es, fr, it, ar]) countries.registerLocale(locale);

/** Every code, sorted. */
export const COUNTRY_CODES: readonly string[] = Object.freeze(Object.keys(countries.getAlpha2Codes()).sort());
const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/** The United States: the origin of every domestic pecan, so never an export destination or a non-US origin. */
export const UNITED_STATES = 'US';

/** Exact, upper-case codes only ('MX', not 'mx' or 'MEX'): the API stores what it is given. */
export function isCountryCode(code: unknown): code is string {
  return typeof code === 'string' && COUNTRY_CODE_SET.has(code);
}

/** 'MX' -> 'Mexico' (or the name in another portal language); undefined for an unknown code. */
export function countryName(code: string, language: CountryLanguage = 'en'): string | undefined {
  return isCountryCode(code) ? countries.getName(code, language) : undefined;
}

export interface CountryOption {
  code: string;
  name: string;
}

/** Every country as { code, name }, sorted by name in the language's own collation, for a select box. */
export function countryOptions(language: CountryLanguage = 'en'): CountryOption[] {
  const collator = new Intl.Collator(language);
  return COUNTRY_CODES.map((code) => ({ code, name: countries.getName(code, language) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}

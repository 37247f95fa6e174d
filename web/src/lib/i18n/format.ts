import { languageInfo } from './languages';

/**
 * Intl formatting for the current language. Money is a decimal string ("1234.50") in US dollars.
 * Formatters are kept per language and options: making one costs far more than using it (tables format hundreds of
 * cells), and the very first one in a page loads the browser's locale data (tens of ms; see warmUpIntl).
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function kept<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) formatters.set(key, (f = make()));
  return f;
}

const dateFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  kept(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

const numberFormat = (locale: string, options: Intl.NumberFormatOptions | undefined) =>
  kept(`n|${locale}|${JSON.stringify(options ?? {})}`, () => new Intl.NumberFormat(locale, options));

/** Loads the browser's locale data for a language ahead of the first page that formats a date or an amount. */
export function warmUpIntl(language: string): void {
  dateFormat(languageInfo(language).intl, { dateStyle: 'medium', timeZone: 'UTC' }).format(0);
}

export function formatDate(
  value: string | Date | null | undefined,
  language: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  if (!value) return '';
  // Plain dates (YYYY-MM-DD) are calendar days: format them in UTC so no time zone moves them.
  const date =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const plain = typeof value === 'string' && value.length === 10;
  return dateFormat(languageInfo(language).intl, { ...options, ...(plain ? { timeZone: 'UTC' } : {}) }).format(date);
}

export function formatNumber(
  value: number | string | null | undefined,
  language: string,
  options?: Intl.NumberFormatOptions,
): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  return numberFormat(languageInfo(language).intl, options).format(n);
}

export function formatMoney(value: number | string | null | undefined, language: string, currency = 'USD'): string {
  return formatNumber(value, language, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

/** A wait in seconds as words, e.g. "2 minutes" or "45 seconds", in the current language. */
export function formatWait(seconds: number, language: string): string {
  const intl = languageInfo(language).intl;
  if (seconds >= 90) {
    return numberFormat(intl, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(Math.ceil(seconds / 60));
  }
  return numberFormat(intl, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(
    Math.max(1, Math.ceil(seconds)),
  );
}

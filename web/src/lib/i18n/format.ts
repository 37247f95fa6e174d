import { languageInfo } from './languages';

/** Intl formatting for the current language. Money is a decimal string ("1234.50") in US dollars. */
export function formatDate(value: string | Date | null | undefined, language: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  if (!value) return '';
  // Plain dates (YYYY-MM-DD) are calendar days: format them in UTC so no time zone moves them.
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const plain = typeof value === 'string' && value.length === 10;
  return new Intl.DateTimeFormat(languageInfo(language).intl, { ...options, ...(plain ? { timeZone: 'UTC' } : {}) }).format(date);
}

export function formatNumber(value: number | string | null | undefined, language: string, options?: Intl.NumberFormatOptions): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  return new Intl.NumberFormat(languageInfo(language).intl, options).format(n);
}

export function formatMoney(value: number | string | null | undefined, language: string, currency = 'USD'): string {
  return formatNumber(value, language, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A wait in seconds as words, e.g. "2 minutes" or "45 seconds", in the current language. */
export function formatWait(seconds: number, language: string): string {
  const intl = languageInfo(language).intl;
  if (seconds >= 90) {
    return new Intl.NumberFormat(intl, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(Math.ceil(seconds / 60));
  }
  return new Intl.NumberFormat(intl, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(Math.max(1, Math.ceil(seconds)));
}

/**
 * Text helpers shared by every rendered document: turning API values (pounds integers, money decimal strings,
 * YYYY-MM-DD dates, ISO timestamps) into the English a reader expects, and making user-typed text safe for the PDF
 * standard fonts, which only encode WinAnsi (Windows-1252).
 */
import { transliterate } from 'transliteration';

/** Shown for a missing value. */
export const EMPTY = '—';
/** Shown for an aggregate suppressed because fewer than three handlers contributed to it. */
export const WITHHELD = 'Withheld';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The characters of WinAnsi beyond Latin-1 (the 0x80-0x9F block). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function isWinAnsi(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(ch);
}

/**
 * A run of characters WinAnsi lacks: accents dropped where that suffices, else transliterated (Ł -> L, 李明 -> Li Ming).
 * `words`: the script writes no spaces, so the result is set apart from its neighbours.
 */
function fallback(run: string): { text: string; words: boolean } {
  const decomposed = run.normalize('NFKD').replace(/\p{M}/gu, '');
  if ([...decomposed].every(isWinAnsi)) return { text: decomposed, words: false };
  const words = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(run);
  return { text: transliterate(run, { unknown: '?' }).trim(), words };
}

const ALNUM = /[\p{L}\p{N}]/u;
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Makes any text drawable with the standard Helvetica fonts: characters WinAnsi knows stay as they are (é, ü, ñ),
 * control characters become spaces, and runs of other characters are transliterated (Łódź -> Lodz, 李明 -> Li Ming,
 * Дмитрий -> Dmitriy); whatever is still left becomes "?".
 */
export function pdfSafe(text: string): string {
  // Nearly every string drawn is printable ASCII, which WinAnsi holds as it is: skip the work below (a PDF draws
  // thousands of strings, several of them twice, once to measure).
  if (PRINTABLE_ASCII.test(text)) return text;
  // Control characters are what this replaces: WinAnsi cannot draw them.
  // eslint-disable-next-line no-control-regex
  const chars = [...text.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')];
  let out = '';
  let i = 0;
  while (i < chars.length) {
    if (isWinAnsi(chars[i])) {
      out += chars[i++];
      continue;
    }
    let run = '';
    while (i < chars.length && !isWinAnsi(chars[i])) run += chars[i++];
    const { text: t, words } = fallback(run);
    const before = words && ALNUM.test(out.slice(-1)) ? ' ' : '';
    const after = words && i < chars.length && ALNUM.test(chars[i]) ? ' ' : '';
    out += before + t + after;
  }
  return [...out].map((ch) => (isWinAnsi(ch) ? ch : '?')).join('');
}

/** 1234567 -> "1,234,567". */
export function formatInteger(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Pounds, or the empty mark for a missing value. */
export function formatPounds(value: unknown): string {
  const n = toNumber(value);
  return n === null ? EMPTY : formatInteger(n);
}

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/** A decimal money string ("1234.5", "-12.30") or a number of dollars, in integer cents; null when not a number. */
export function moneyToCents(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.round(value * 100);
  if (typeof value !== 'string') return null;
  const m = /^(-)?(\d+)(?:\.(\d{1,2})\d*)?$/.exec(value.trim());
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

/** Cents -> "$1,234.50" (negative: "-$12.30"). */
export function formatCents(cents: number): string {
  const abs = Math.abs(cents);
  const text = `$${formatInteger(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

/** "1234.5" -> "$1,234.50". */
export function formatMoney(value: unknown): string {
  const cents = moneyToCents(value);
  return cents === null ? EMPTY : formatCents(cents);
}

/** A per-pound rate with two to four decimals: "0.01" -> "$0.01", "0.0125" -> "$0.0125". */
export function formatRate(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return EMPTY;
  const fixed = n
    .toFixed(4)
    .replace(/(\.\d\d\d?)0+$/, '$1')
    .replace(/(\.\d\d)0$/, '$1');
  return `$${fixed}`;
}

/** "0.4800" -> "0.4800 (48.00%)". */
export function formatRatio(value: unknown): string {
  const n = toNumber(value);
  return n === null ? EMPTY : `${n.toFixed(4)} (${(n * 100).toFixed(2)}%)`;
}

/** "2026-10-10" -> "Oct 10, 2026"; anything unparseable is shown as typed. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || !value) return EMPTY;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return pdfSafe(value);
  return `${MONTHS[Number(m[2]) - 1].slice(0, 3)} ${Number(m[3])}, ${m[1]}`;
}

/** "2026-10" (or a date in it) -> "October 2026". */
export function formatMonth(value: unknown): string {
  if (typeof value !== 'string' || !value) return EMPTY;
  const m = /^(\d{4})-(\d{2})/.exec(value);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return pdfSafe(value);
  return `${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}

/** "2026-10" -> "Oct 2026", for narrow table columns. */
export function formatMonthShort(value: string): string {
  return formatMonth(value).replace(/^(\w{3})\w*/, '$1');
}

/** An ISO timestamp -> "Oct 10, 2026, 14:03 UTC". */
export function formatDateTimeUtc(value: unknown): string {
  if (typeof value !== 'string' || !value) return EMPTY;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return pdfSafe(value);
  const iso = d.toISOString();
  return `${formatDate(iso.slice(0, 10))}, ${iso.slice(11, 16)} UTC`;
}

export function formatBool(value: unknown): string {
  if (value === true || value === 1 || value === '1' || value === 'true') return 'Yes';
  if (value === false || value === 0 || value === '0' || value === 'false') return 'No';
  return EMPTY;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "MX" -> "Mexico (MX)"; free text stays as typed. */
export function formatCountry(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) return EMPTY;
  const code = value.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(code)) {
    try {
      const name = regionNames.of(code);
      if (name && name !== code) return `${pdfSafe(name)} (${code})`;
    } catch {
      // not a region code: shown as typed
    }
  }
  return pdfSafe(value.trim());
}

/** "mexico_ytd_shelled_lb" -> "Mexico ytd shelled lb": the fallback label for a field no table names. */
export function humanize(name: string): string {
  const words = name
    .replace(/^field_/, '')
    .split('_')
    .filter(Boolean);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

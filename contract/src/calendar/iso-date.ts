/**
 * Calendar dates as 'YYYY-MM-DD' strings and months as 'YYYY-MM', the API's forms. Arithmetic goes through a day
 * number (days since 1970-01-01) computed with integer formulas (H. Hinnant's days_from_civil), never through
 * `Date` in local time, so a browser in any time zone gets the same answers as the server.
 */
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;

export interface CivilDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** 'YYYY-MM-DD' that names a real day (no 2026-02-30), or undefined. */
export function parseIsoDate(text: unknown): CivilDate | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

export function isIsoDate(text: unknown): text is string {
  return parseIsoDate(text) !== undefined;
}

/** 'YYYY-MM' with a month 01..12. */
export function isPeriodMonth(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const match = MONTH_PATTERN.exec(text);
  return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 12;
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

export function formatIsoDate({ year, month, day }: CivilDate): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

export function formatPeriodMonth(year: number, month: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}`;
}

function requireDate(text: string): CivilDate {
  const date = parseIsoDate(text);
  if (!date) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${text}`);
  return date;
}

function requireMonth(text: string): { year: number; month: number } {
  if (!isPeriodMonth(text)) throw new RangeError(`Not a month (YYYY-MM): ${text}`);
  return { year: Number(text.slice(0, 4)), month: Number(text.slice(5, 7)) };
}

/** Days since 1970-01-01 (negative before). */
export function dayNumber(text: string): number {
  const { year, month, day } = requireDate(text);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse of dayNumber. */
export function fromDayNumber(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return formatIsoDate({ year, month, day });
}

export function addDays(text: string, days: number): string {
  return fromDayNumber(dayNumber(text) + days);
}

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(text: string): number {
  return (((dayNumber(text) + 4) % 7) + 7) % 7;
}

/** '2026-11' + 1 -> '2026-12'; '2026-12' + 1 -> '2027-01'. */
export function addMonths(periodMonth: string, months: number): string {
  const { year, month } = requireMonth(periodMonth);
  const index = year * 12 + (month - 1) + months;
  return formatPeriodMonth(Math.floor(index / 12), (index % 12) + 1);
}

/** The first day of a month: '2026-11' -> '2026-11-01'. */
export function firstDayOf(periodMonth: string): string {
  requireMonth(periodMonth);
  return `${periodMonth}-01`;
}

/** The month a date falls in: '2026-11-15' -> '2026-11'. */
export function monthOf(date: string): string {
  requireDate(date);
  return date.slice(0, 7);
}

/** Today's date in UTC (the server's and the API's calendar). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

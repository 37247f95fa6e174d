import { addMonths, formatPeriodMonth, isPeriodMonth, parseIsoDate } from './iso-date.js';

/**
 * A season (crop year) runs 1 September to 31 August and is titled by its two years, '2026-2027'. This follows
 * APC's published crop-year data and the year-end inventory as of 31 August (the fiscal year of the assessment
 * rules runs October to September instead; see the domain brief). Reporting periods are months, 'YYYY-MM'.
 */
const SEASON_PATTERN = /^(\d{4})-(\d{4})$/;
export const SEASON_START_MONTH = 9;

export function isSeasonTitle(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const match = SEASON_PATTERN.exec(text);
  return match !== null && Number(match[2]) === Number(match[1]) + 1;
}

export function seasonTitle(startYear: number): string {
  return `${startYear}-${startYear + 1}`;
}

/** '2026-2027' -> 2026. */
export function seasonStartYear(season: string): number {
  if (!isSeasonTitle(season)) throw new RangeError(`Not a season title (YYYY-YYYY+1): ${season}`);
  return Number(season.slice(0, 4));
}

/** '2026-2027' -> '2026-09-01'. */
export function seasonStartDate(season: string): string {
  return `${seasonStartYear(season)}-09-01`;
}

/** '2026-2027' -> '2027-08-31', the year-end inventory date. */
export function seasonEndDate(season: string): string {
  return `${seasonStartYear(season) + 1}-08-31`;
}

/** The season a date falls in: '2026-08-31' -> '2025-2026', '2026-09-01' -> '2026-2027'. */
export function seasonOf(date: string): string {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  return seasonTitle(parsed.month >= SEASON_START_MONTH ? parsed.year : parsed.year - 1);
}

/** The season a reporting month belongs to: '2027-08' -> '2026-2027'. */
export function seasonOfPeriod(periodMonth: string): string {
  if (!isPeriodMonth(periodMonth)) throw new RangeError(`Not a month (YYYY-MM): ${periodMonth}`);
  return seasonOf(`${periodMonth}-01`);
}

/** The season's 12 reporting months, September to August. */
export function periodsOfSeason(season: string): string[] {
  const start = seasonStartYear(season);
  // Formatted as they are, not by addMonths (which checks each month again): the submissions board's stale check
  // asks this of every handler.
  return Array.from({ length: 12 }, (_, index) => {
    const month = SEASON_START_MONTH + index;
    return month <= 12 ? formatPeriodMonth(start, month) : formatPeriodMonth(start + 1, month - 12);
  });
}

/** The season's months before this one (none for September): the months a season-to-date sum runs over. */
export function earlierPeriodsOfSeason(periodMonth: string): string[] {
  const periods = periodsOfSeason(seasonOfPeriod(periodMonth));
  return periods.slice(0, periods.indexOf(periodMonth));
}

/** '2026-09' -> '2026-08' (which belongs to the previous season). */
export function previousPeriodMonth(periodMonth: string): string {
  return addMonths(periodMonth, -1);
}

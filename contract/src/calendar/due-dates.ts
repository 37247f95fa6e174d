import { businessDayOnOrAfter } from './business-days.js';
import { addMonths } from './iso-date.js';
import { seasonStartYear } from './seasons.js';

/**
 * Due dates (986.177, 986.178): monthly forms are due the 10th of the month after the activity month; the
 * year-end inventory (as of 31 August) is due 10 September. Either moves to the next business day when it falls
 * on a weekend or a federal holiday. The server stores the result on each reporting period and season, so a
 * changed rule never rewrites history.
 */
export const DUE_DAY_OF_MONTH = 10;

/** '2026-11' -> '2026-12-10'; '2024-10' -> '2024-11-12' (10th a Sunday, 11th Veterans Day). */
export function monthlyDueDate(periodMonth: string): string {
  return businessDayOnOrAfter(`${addMonths(periodMonth, 1)}-${DUE_DAY_OF_MONTH}`);
}

/** '2025-2026' -> 10 September 2026, or the next business day. */
export function yearEndDueDate(season: string): string {
  return businessDayOnOrAfter(`${seasonStartYear(season) + 1}-09-${DUE_DAY_OF_MONTH}`);
}

/**
 * Form 4 (986.162): due the 10th of the month after the first transfer between the two handlers, moved like a
 * monthly form's. '2026-10' -> '2026-11-10'. Null when the month is not known yet (a draft).
 */
export function transferAgreementDueDate(firstTransferMonth: string | null | undefined): string | null {
  return firstTransferMonth ? monthlyDueDate(firstTransferMonth) : null;
}

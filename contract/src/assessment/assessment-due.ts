import { divideRoundHalfUp, toSafeNumber } from '../money/rounding.js';
import {
  assessmentRateFor,
  ASSESSMENT_RATES,
  MILLS_PER_CENT,
  PECAN_TYPES,
  type AssessmentRate,
  type PoundsByType,
} from './rates.js';

/**
 * The assessment on a month's receipts: for each type, inshell pounds x rate in mills, added up exactly with
 * BigInt, then rounded half up to whole cents once, on the total (rounding each type first could differ by a cent).
 * With today's whole-cent rates nothing is ever rounded; the rule matters only for a rate in fractions of a cent.
 *
 * Example: 120,000 lb improved in 2021-09 at 30 mills = 3,600,000 mills = 360,000 cents = $3,600.00.
 */
export interface AssessmentLine {
  type: keyof PoundsByType;
  pounds: number;
  millsPerPound: number;
  mills: bigint;
}

export interface AssessmentDetail {
  rate: AssessmentRate;
  lines: AssessmentLine[];
  totalCents: number;
}

export function assessmentDetail(
  pounds: Partial<PoundsByType>,
  periodMonth: string,
  rates: readonly AssessmentRate[] = ASSESSMENT_RATES,
): AssessmentDetail {
  const rate = assessmentRateFor(periodMonth, rates);
  const lines = PECAN_TYPES.map((type) => {
    const weight = pounds[type] ?? 0;
    if (!Number.isSafeInteger(weight) || weight < 0) throw new RangeError(`${type} pounds must be a whole number >= 0`);
    const millsPerPound = rate.millsPerPound[type];
    return { type, pounds: weight, millsPerPound, mills: BigInt(weight) * BigInt(millsPerPound) };
  });
  const totalMills = lines.reduce((sum, line) => sum + line.mills, 0n);
  return { rate, lines, totalCents: toSafeNumber(divideRoundHalfUp(totalMills, BigInt(MILLS_PER_CENT))) };
}

/** The assessment due in cents on the pounds received in an activity month. */
export function assessmentDue(
  pounds: Partial<PoundsByType>,
  periodMonth: string,
  rates: readonly AssessmentRate[] = ASSESSMENT_RATES,
): number {
  return assessmentDetail(pounds, periodMonth, rates).totalCents;
}

import { firstDayOf } from '../calendar/iso-date.js';

/**
 * Assessment rates per inshell pound, with the date each took effect. Rates are integer tenths of a cent
 * ("mills": $0.03 = 30) so that a future rate such as $0.025 fits without floats.
 *
 * The rate of a form is picked by its activity month, not by the day it is filed or the day a rule was published:
 * the 2021 reduction was effective 1 October 2021 though in force only from 16 May 2022, so September 2021 forms use
 * the old rates and October 2021 forms the new ones (domain brief, "Assessments").
 */
export const PECAN_TYPES = ['improved', 'native', 'substandard'] as const;
export type PecanType = (typeof PECAN_TYPES)[number];
export type PoundsByType = Record<PecanType, number>;

/** Tenths of a cent per dollar cent: rates are in mills, amounts in cents. */
export const MILLS_PER_CENT = 10;

export interface AssessmentRate {
  /** First day the rate applies to, 'YYYY-MM-DD'; compared with the first day of the activity month. */
  effectiveFrom: string;
  millsPerPound: Record<PecanType, number>;
  /** Where the rate comes from. */
  source: string;
}

/** Oldest first. */
export const ASSESSMENT_RATES: readonly AssessmentRate[] = [
  {
    effectiveFrom: '2016-10-01',
    millsPerPound: { improved: 30, native: 20, substandard: 20 },
    source: '82 FR 43667 (September 2017)',
  },
  {
    effectiveFrom: '2021-10-01',
    millsPerPound: { improved: 10, native: 0, substandard: 0 },
    source: 'Federal Register document 2022-08001 (14 April 2022), for the fiscal year from 1 October 2021',
  },
];

/** The rate for an activity month 'YYYY-MM'; throws before the first rate (October 2016). */
export function assessmentRateFor(
  periodMonth: string,
  rates: readonly AssessmentRate[] = ASSESSMENT_RATES,
): AssessmentRate {
  const monthStart = firstDayOf(periodMonth);
  const applicable = rates.filter((rate) => rate.effectiveFrom <= monthStart);
  if (applicable.length === 0) throw new RangeError(`No assessment rate applies to ${periodMonth}`);
  return applicable.reduce((latest, rate) => (rate.effectiveFrom > latest.effectiveFrom ? rate : latest));
}

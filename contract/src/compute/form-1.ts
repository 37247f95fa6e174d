import { assessmentDue } from '../assessment/assessment-due.js';
import { earlierPeriodsOfSeason, previousPeriodMonth } from '../calendar/seasons.js';
import type { TransferRow, VarietyRow } from '../forms/value-schemas.js';
import { sumIntegers, totalOf } from './sum.js';

/**
 * Form 1's computed fields (7 CFR 986.177(a)). The server stores the result with each write; the web app calls the
 * same functions as the user types, with the same earlier months, so both show the same figures.
 *
 * 986.177(a)(6) and (7) ask for shipments inshell and shelled and inter-handler transfers shipped and received,
 * each for the month, the previous month and the year to date. Every one of those four flows keeps its own three
 * figures: inshell and shelled pounds are never added into one figure (a pound of meats is not a pound inshell),
 * and transfers between handlers are not shipments to end users.
 *
 * The earlier months come in as `Form1MonthFigures`, one per month, each the CURRENT certified version of that
 * month's form (a superseded version or a draft never counts). `form1Context` picks from them:
 * - season to date: the sum of the season's months before this one (none for September);
 * - previous month: the calendar month before, which for September is August of the season before (0 when the
 *   handler filed none).
 * Sums of the months rather than last month's year-to-date: an amendment of an earlier month then flows into every
 * later month computed afterwards, while a certified copy keeps the figures it was certified with.
 *
 * Empty fields of a draft count as 0.
 */
export interface Form1Entered {
  receipts_by_variety?: readonly VarietyRow[] | null;
  receipts_native?: number | null;
  receipts_substandard?: number | null;
  shipments_inshell?: number | null;
  shipments_shelled?: number | null;
  /** The month's inter-handler shipment lines; their sum is `interhandler_shipped`. */
  interhandler_shipments?: readonly TransferRow[] | null;
  /** A stored month's total (earlier months); a draft's is the sum of its lines. */
  interhandler_shipped?: number | null;
  interhandler_received?: number | null;
}

/** The four flows of 986.177(a)(6)-(7), each on its own basis. */
export const FORM_1_FLOWS = [
  'shipments_inshell',
  'shipments_shelled',
  'interhandler_shipped',
  'interhandler_received',
] as const;
export type Form1Flow = (typeof FORM_1_FLOWS)[number];

/**
 * The stored columns a form 1's own figures of its month come from (its receipts and the four flows): what a reader
 * of earlier months' figures needs, and no more.
 */
export const FORM_1_MONTH_FIGURE_FIELDS = [
  'receipts_by_variety',
  'receipts_native',
  'receipts_substandard',
  ...FORM_1_FLOWS,
] as const;

/** One month's own figures of a certified form 1: what later months' previous-month and year-to-date are built from. */
export interface Form1MonthFigures {
  receipts_improved: number;
  receipts_native: number;
  receipts_substandard: number;
  shipments_inshell: number;
  shipments_shelled: number;
  interhandler_shipped: number;
  interhandler_received: number;
}

export type Form1SeasonToDate = Form1MonthFigures;

export interface Form1Context {
  /** The activity month 'YYYY-MM': picks the assessment rate. */
  periodMonth: string;
  /** Sums over the season's months before this one. */
  seasonToDate: Form1SeasonToDate;
  /** The calendar month before (August of the season before for September), or null when none was filed. */
  previousMonth: Form1MonthFigures | null;
}

export interface Form1Computed {
  receipts_improved: number;
  receipts_total: number;
  /** The sum of the inter-handler shipment lines. */
  interhandler_shipped: number;
  receipts_ytd_improved: number;
  receipts_ytd_native: number;
  receipts_ytd_substandard: number;
  /** Cents. */
  assessment_due: number;
  shipments_inshell_prev_month: number;
  shipments_inshell_ytd: number;
  shipments_shelled_prev_month: number;
  shipments_shelled_ytd: number;
  interhandler_shipped_prev_month: number;
  interhandler_shipped_ytd: number;
  interhandler_received_prev_month: number;
  interhandler_received_ytd: number;
}

export const EMPTY_FORM_1_SEASON_TO_DATE: Form1SeasonToDate = Object.freeze({
  receipts_improved: 0,
  receipts_native: 0,
  receipts_substandard: 0,
  shipments_inshell: 0,
  shipments_shelled: 0,
  interhandler_shipped: 0,
  interhandler_received: 0,
});

/** The computed fields that depend on earlier months: what goes stale when an earlier month is amended. */
export const FORM_1_CARRIED_FIELDS = [
  'receipts_ytd_improved',
  'receipts_ytd_native',
  'receipts_ytd_substandard',
  ...FORM_1_FLOWS.flatMap((flow) => [`${flow}_prev_month`, `${flow}_ytd`]),
] as const;

/** A month's own figures from its entered values (or from a stored row read as numbers). */
export function form1MonthFigures(entered: Form1Entered): Form1MonthFigures {
  return {
    receipts_improved: totalOf(entered.receipts_by_variety ?? [], 'pounds'),
    receipts_native: entered.receipts_native ?? 0,
    receipts_substandard: entered.receipts_substandard ?? 0,
    shipments_inshell: entered.shipments_inshell ?? 0,
    shipments_shelled: entered.shipments_shelled ?? 0,
    interhandler_shipped: entered.interhandler_shipped ?? 0,
    interhandler_received: entered.interhandler_received ?? 0,
  };
}

const MONTH_FIGURES = Object.keys(EMPTY_FORM_1_SEASON_TO_DATE) as (keyof Form1MonthFigures)[];

function addFigures(a: Form1MonthFigures, b: Form1MonthFigures): Form1MonthFigures {
  const sum = {} as Form1MonthFigures;
  for (const k of MONTH_FIGURES) sum[k] = sumIntegers([a[k], b[k]]);
  return sum;
}

/**
 * The context of `periodMonth` from the handler's current certified figures by month ('YYYY-MM' -> figures).
 * Months outside the season and the previous month are ignored, so a caller may pass more than it needs.
 */
export function form1Context(
  periodMonth: string,
  certifiedByMonth: ReadonlyMap<string, Form1MonthFigures>,
): Form1Context {
  const seasonToDate = earlierPeriodsOfSeason(periodMonth)
    .map((month) => certifiedByMonth.get(month))
    .reduce<Form1MonthFigures>(
      (total, month) => (month ? addFigures(total, month) : total),
      EMPTY_FORM_1_SEASON_TO_DATE,
    );
  return { periodMonth, seasonToDate, previousMonth: certifiedByMonth.get(previousPeriodMonth(periodMonth)) ?? null };
}

/** The months whose certified figures `form1Context` reads: the season's earlier months and the previous month. */
export function form1ContextMonths(periodMonth: string): string[] {
  const months = earlierPeriodsOfSeason(periodMonth);
  const previous = previousPeriodMonth(periodMonth);
  return months.includes(previous) ? months : [...months, previous];
}

export function computeForm1(entered: Form1Entered, context: Form1Context): Form1Computed {
  // A form being filled in: its inter-handler shipments are its lines, the stored total is theirs to replace.
  const own = form1MonthFigures({
    ...entered,
    interhandler_shipped: totalOf(entered.interhandler_shipments ?? [], 'pounds'),
  });
  return {
    receipts_improved: own.receipts_improved,
    receipts_total: sumIntegers([own.receipts_improved, own.receipts_native, own.receipts_substandard]),
    interhandler_shipped: own.interhandler_shipped,
    assessment_due: assessmentDue(
      { improved: own.receipts_improved, native: own.receipts_native, substandard: own.receipts_substandard },
      context.periodMonth,
    ),
    ...form1CarriedFigures(own, context),
  } as Form1Computed;
}

/**
 * The figures a month carries from the months before it (season to date, previous month), from the month's own
 * figures. The stale check calls it with a certified month's figures as certified (its stored totals), so a version
 * filed before its shipments were lines keeps the total it was filed with.
 */
export function form1CarriedFigures(own: Form1MonthFigures, context: Form1Context): Record<Form1CarriedField, number> {
  const before = context.seasonToDate;
  const previous = context.previousMonth ?? EMPTY_FORM_1_SEASON_TO_DATE;
  const carried = {
    receipts_ytd_improved: sumIntegers([before.receipts_improved, own.receipts_improved]),
    receipts_ytd_native: sumIntegers([before.receipts_native, own.receipts_native]),
    receipts_ytd_substandard: sumIntegers([before.receipts_substandard, own.receipts_substandard]),
  } as Record<Form1CarriedField, number>;
  // Assigned in FORM_1_FLOWS order, not spread: the submissions board runs this for every handler.
  for (const name of FORM_1_FLOWS) {
    carried[`${name}_prev_month`] = previous[name];
    carried[`${name}_ytd`] = sumIntegers([before[name], own[name]]);
  }
  return carried;
}

/** A figure a month carries from the months before it. */
export type Form1CarriedField = (typeof FORM_1_CARRIED_FIELDS)[number];

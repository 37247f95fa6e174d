import {
  FORM_1_CARRIED_FIELDS,
  form1CarriedFigures,
  form1Context,
  form1MonthFigures,
  type Form1CarriedField,
  type Form1Entered,
  type Form1MonthFigures,
} from './form-1.js';

/**
 * Year-to-date after an amendment. A certified form 1 keeps the previous-month and season-to-date figures it was
 * certified with, even when an earlier month is amended afterwards; everything computed later sums the current
 * versions. This finds the certified months whose carried figures no longer match the current versions before
 * them, with the corrected figure of each: the board and the handler's dashboard flag them, and an amendment of
 * the month (which recomputes) puts them right.
 */
/** A month's current certified form 1: its entries and the carried figures it was certified with. */
export interface CertifiedForm1Month {
  id: string;
  month: string;
  entered: Form1Entered;
  carried: Record<Form1CarriedField, number>;
}

export interface StaleFigure {
  field: Form1CarriedField;
  certified: number;
  corrected: number;
}

export interface StaleForm1Month {
  id: string;
  month: string;
  figures: StaleFigure[];
}

/**
 * The months from `checkFrom` on (or all) whose carried figures differ from a recomputation with the current
 * versions of `months`. `months` must hold every month the checked ones read: the season's earlier months and
 * the previous month (August of the season before for September).
 */
export function staleForm1Months(months: readonly CertifiedForm1Month[], checkFrom = ''): StaleForm1Month[] {
  const byMonth = new Map<string, Form1MonthFigures>(months.map((m) => [m.month, form1MonthFigures(m.entered)]));
  const stale: StaleForm1Month[] = [];
  for (const m of [...months].sort((a, b) => a.month.localeCompare(b.month))) {
    if (m.month < checkFrom) continue;
    // The month's own figures as certified (stored totals): only what it carries from earlier months can go stale.
    const corrected = form1CarriedFigures(byMonth.get(m.month)!, form1Context(m.month, byMonth));
    const figures = FORM_1_CARRIED_FIELDS.filter((field) => corrected[field] !== m.carried[field]).map((field) => ({
      field,
      certified: m.carried[field],
      corrected: corrected[field],
    }));
    if (figures.length > 0) stale.push({ id: m.id, month: m.month, figures });
  }
  return stale;
}

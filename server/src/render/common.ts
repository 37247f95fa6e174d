/** Types and wording shared by several rendered documents. */

/** A handler company as printed on documents. */
export interface HandlerRef {
  name: string;
  /** The council's handler number, e.g. "101". */
  number: string | number;
}

/**
 * One aggregated industry figure, as an aggregation query yields it: the sum, and whether it must be withheld
 * because fewer than three handlers contributed to it (7 CFR 986.81). A withheld figure has `value: null`.
 * Plain numbers are accepted as shorthand for a published figure; `null` alone means "no data".
 */
export type Figure = number | null | { value: number | null; withheld?: boolean; handlerCount?: number };

export const CONFIDENTIALITY_TITLE = 'Confidential information (7 CFR 986.81)';
export const CONFIDENTIALITY_NOTICE =
  'Reports that reveal trade secrets, trade position, financial condition or business operations of a handler are ' +
  'kept confidential: they are handled only by designated employees of the American Pecan Council and are disclosed ' +
  'to no one but the Secretary of Agriculture. The Council publishes only industry-wide compilations that do not ' +
  'identify any handler.';

export const WITHHELD_FOOTNOTE =
  '"Withheld": to protect confidential information under 7 CFR 986.81, a figure compiled from fewer than three ' +
  'handlers, or mostly from one, is not published, nor is any total from which it could be derived: other figures ' +
  'are withheld too where they would let a reader work it out with figures published in this or earlier reports.';

export function handlerLine(handler: HandlerRef): string {
  return `${handler.name} (Handler ${handler.number})`;
}

/** Whether a figure must print as "Withheld". */
export function isWithheld(figure: Figure): boolean {
  return typeof figure === 'object' && figure !== null && figure.withheld === true;
}

/** The published number of a figure, or null when withheld or missing. */
export function figureValue(figure: Figure): number | null {
  if (typeof figure === 'number') return figure;
  if (figure === null) return null;
  return figure.withheld ? null : figure.value;
}

/**
 * The sum of published figures. When any part is withheld the sum is withheld too, since publishing it would let a
 * reader subtract the other parts and learn the withheld one; parts without data count as zero.
 */
export function sumFigures(figures: Figure[]): Figure {
  if (figures.some(isWithheld)) return { value: null, withheld: true };
  if (figures.every((f) => figureValue(f) === null)) return null;
  return figures.reduce<number>((n, f) => n + (figureValue(f) ?? 0), 0);
}

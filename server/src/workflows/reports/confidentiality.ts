/**
 * The confidentiality rule of 7 CFR 986.81 as the council applies it to published aggregates: a figure drawn from
 * fewer than three handlers is not published. This is the one place the rule lives; every position report and
 * analytics workbook passes its aggregates through `publishFigure`.
 */

/** Fewest handlers whose non-zero figures a published total may be built from. */
export const MIN_CONTRIBUTING_HANDLERS = 3;

/** An aggregation query's result for one figure: the sum, and how many distinct handlers reported it non-zero. */
export interface Aggregate {
  value: number;
  handlerCount: number;
}

/** A figure as the renderers take it (see render/common.ts `Figure`). Withheld figures carry no value. */
export interface PublishedFigure {
  value: number | null;
  withheld: boolean;
  handlerCount: number;
}

export const NO_DATA: Aggregate = { value: 0, handlerCount: 0 };

/**
 * One or two handlers: withheld (value null). Three or more: published. None: a true zero (no handler reported any
 * such pounds), which reveals nothing about any one handler and is published as 0.
 */
export function publishFigure(aggregate: Aggregate | undefined): PublishedFigure {
  const { value, handlerCount } = aggregate ?? NO_DATA;
  if (handlerCount > 0 && handlerCount < MIN_CONTRIBUTING_HANDLERS) return { value: null, withheld: true, handlerCount };
  return { value, withheld: false, handlerCount };
}

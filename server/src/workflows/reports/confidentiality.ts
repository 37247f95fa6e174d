/**
 * Figures as the documents take them. The rules that decide which are withheld live in disclosure/ (primary rules,
 * complementary suppression across everything published for the season, frozen publications); see
 * docs/DISCLOSURE-CONTROL.md.
 */
export { MIN_CONTRIBUTING_HANDLERS } from './disclosure/rules.js';
import { MIN_CONTRIBUTING_HANDLERS } from './disclosure/rules.js';

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
  /** Why it is withheld: a primary rule (too few handlers, or one dominant), or to protect another figure. */
  suppression?: 'primary' | 'complementary';
}

export const NO_DATA: Aggregate = { value: 0, handlerCount: 0 };

/**
 * The three-handler rule alone, for figures no publication covers (a handler's own analytics compare with published
 * figures only). One or two handlers: withheld. None: a true zero.
 */
export function publishFigure(aggregate: Aggregate | undefined): PublishedFigure {
  const { value, handlerCount } = aggregate ?? NO_DATA;
  if (handlerCount > 0 && handlerCount < MIN_CONTRIBUTING_HANDLERS)
    return { value: null, withheld: true, handlerCount, suppression: 'primary' };
  return { value, withheld: false, handlerCount };
}

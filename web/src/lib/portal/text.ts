/** Text helpers the data pages share for values that may be missing and for right-to-left pages. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/**
 * Text isolated from the surrounding direction (first-strong isolate, U+2068..U+2069), so "2026-2027" or "alice" read
 * right in Arabic.
 */
export const iso = (v: unknown): string => `\u2068${str(v)}\u2069`;
/** Left-to-right isolate, for season titles ("2026-2027") that have no letters to take a direction from. */
export const ltr = (v: unknown): string => `\u2066${str(v)}\u2069`;

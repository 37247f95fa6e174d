/**
 * Bounds of form values. Pounds stop at 10 billion: about 20 times the whole US crop of a year, so a larger figure
 * is a typing error, and every sum of a season stays a safe integer.
 */
export const MAX_POUNDS = 10_000_000_000;
export const MAX_VARIETY_ROWS = 200;
export const MAX_VARIETY_NAME_LENGTH = 100;
export const MAX_TEXT_LENGTH = 255;

/** Form 4: the party that pays the assessment and reports the volume on its year-end form. */
export const RESPONSIBLE_HANDLERS = ['transferring', 'receiving'] as const;
export type ResponsibleHandler = (typeof RESPONSIBLE_HANDLERS)[number];

/** Form 1's inter-handler shipment lines: one per receiving handler and pecan type at most. */
export const MAX_TRANSFER_ROWS = 200;

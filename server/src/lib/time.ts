import { randomUUID } from 'node:crypto';

// The last second written: the bearer check writes the time at every request, and it changes once a second.
let lastSecond = Number.NaN;
let lastText = '';

/** The contract's timestamp form: UTC, `+00:00`, no milliseconds (2026-10-10T14:03:00+00:00). */
export function isoTimestamp(date: Date = new Date()): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = date.toISOString().replace(/\.\d{3}Z$/, '+00:00'); // throws for an invalid date, as before
    lastSecond = second;
  }
  return lastText;
}

/** A clock that tests can replace; the server reads the time only through it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export const newId = (): string => randomUUID();

import { randomUUID } from 'node:crypto';

/** The contract's timestamp form: UTC, `+00:00`, no milliseconds (2026-10-10T14:03:00+00:00). */
export function isoTimestamp(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** A clock that tests can replace; the server reads the time only through it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export const newId = (): string => randomUUID();

import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './time.js';

describe('isoTimestamp', () => {
  it('writes the second of any date, in whatever order dates come (it keeps the last second written)', () => {
    expect(isoTimestamp(new Date('2026-10-10T14:03:00.000Z'))).toBe('2026-10-10T14:03:00+00:00');
    expect(isoTimestamp(new Date('2026-10-10T14:03:00.999Z'))).toBe('2026-10-10T14:03:00+00:00');
    expect(isoTimestamp(new Date('2026-10-10T14:03:01.000Z'))).toBe('2026-10-10T14:03:01+00:00');
    expect(isoTimestamp(new Date('2026-10-10T14:02:59.500Z'))).toBe('2026-10-10T14:02:59+00:00');
    expect(isoTimestamp(new Date('1969-12-31T23:59:59.500Z'))).toBe('1969-12-31T23:59:59+00:00');
    expect(isoTimestamp(new Date('1970-01-01T00:00:00.000Z'))).toBe('1970-01-01T00:00:00+00:00');
  });

  it('refuses an invalid date, and writes the next valid one right', () => {
    expect(() => isoTimestamp(new Date('not a date'))).toThrow(RangeError);
    expect(isoTimestamp(new Date('2026-10-10T14:03:00Z'))).toBe('2026-10-10T14:03:00+00:00');
  });
});

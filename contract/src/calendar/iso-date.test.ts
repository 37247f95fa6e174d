import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayNumber,
  fromDayNumber,
  isIsoDate,
  isPeriodMonth,
  monthOf,
  parseIsoDate,
  todayUtc,
  weekdayOf,
} from './iso-date.js';

describe('ISO dates', () => {
  it('accepts real calendar dates only', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('1900-02-29')).toBe(false);
    expect(isIsoDate('2000-02-29')).toBe(true);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
    expect(isIsoDate('2026-01-01T00:00:00Z')).toBe(false);
    expect(isIsoDate(20260101)).toBe(false);
    expect(parseIsoDate('2026-11-05')).toEqual({ year: 2026, month: 11, day: 5 });
  });

  it('counts days from 1970-01-01 and back', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1969-12-31')).toBe(-1);
    expect(dayNumber('2000-03-01')).toBe(11_017);
    for (const date of ['0001-01-01', '1600-02-29', '2026-12-31', '9999-12-31']) {
      expect(fromDayNumber(dayNumber(date))).toBe(date);
    }
  });

  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('knows weekdays (0 = Sunday)', () => {
    expect(weekdayOf('1970-01-01')).toBe(4);
    expect(weekdayOf('2026-12-10')).toBe(4);
    expect(weekdayOf('2026-10-10')).toBe(6);
    expect(weekdayOf('1969-12-28')).toBe(0);
  });

  it('handles months', () => {
    expect(isPeriodMonth('2026-11')).toBe(true);
    expect(isPeriodMonth('2026-00')).toBe(false);
    expect(isPeriodMonth('2026-13')).toBe(false);
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-09', 11)).toBe('2027-08');
    expect(monthOf('2026-11-15')).toBe('2026-11');
    expect(() => addMonths('2026-13', 1)).toThrow(RangeError);
  });

  it("takes today's date in UTC whatever the local time zone", () => {
    expect(todayUtc(new Date('2026-10-10T23:30:00-05:00'))).toBe('2026-10-11');
  });
});

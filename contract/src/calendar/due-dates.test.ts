import { describe, expect, it } from 'vitest';
import { monthlyDueDate, yearEndDueDate } from './due-dates.js';
import { weekdayOf } from './iso-date.js';

describe('monthlyDueDate', () => {
  it('is the 10th of the next month on a business day', () => {
    expect(monthlyDueDate('2026-11')).toBe('2026-12-10');
    expect(weekdayOf('2026-12-10')).toBe(4); // Thursday
  });

  it('moves a Saturday 10th to Monday', () => {
    expect(monthlyDueDate('2027-03')).toBe('2027-04-12');
    expect(monthlyDueDate('2024-07')).toBe('2024-08-12');
  });

  it('moves a Sunday 10th to Monday', () => {
    expect(monthlyDueDate('2026-04')).toBe('2026-05-11');
  });

  it('skips a holiday after the weekend', () => {
    expect(monthlyDueDate('2024-10')).toBe('2024-11-12'); // Sunday 10th, Veterans Day Monday 11th
    expect(monthlyDueDate('2026-09')).toBe('2026-10-13'); // Saturday 10th, Columbus Day Monday 12th
  });

  it('crosses the year', () => {
    expect(monthlyDueDate('2026-12')).toBe('2027-01-11'); // Sunday 10 January 2027
  });
});

describe('yearEndDueDate', () => {
  it('is 10 September after the season, next business day', () => {
    expect(yearEndDueDate('2025-2026')).toBe('2026-09-10');
    expect(yearEndDueDate('2021-2022')).toBe('2022-09-12'); // Saturday
    expect(yearEndDueDate('2027-2028')).toBe('2028-09-11'); // Sunday
  });

  it('refuses a malformed season', () => {
    expect(() => yearEndDueDate('2026-2028')).toThrow(RangeError);
  });
});

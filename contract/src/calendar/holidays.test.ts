import { describe, expect, it } from 'vitest';
import { federalHolidayObservedOn, federalHolidays, isFederalHoliday } from './holidays.js';

describe('federalHolidays', () => {
  it('lists the eleven holidays of 2026 with their observed dates', () => {
    expect(federalHolidays(2026).map((holiday) => `${holiday.observed} ${holiday.name}`)).toEqual([
      "2026-01-01 New Year's Day",
      '2026-01-19 Birthday of Martin Luther King, Jr.',
      "2026-02-16 Washington's Birthday",
      '2026-05-25 Memorial Day',
      '2026-06-19 Juneteenth National Independence Day',
      '2026-07-03 Independence Day', // 4 July 2026 is a Saturday
      '2026-09-07 Labor Day',
      '2026-10-12 Columbus Day',
      '2026-11-11 Veterans Day',
      '2026-11-26 Thanksgiving Day',
      '2026-12-25 Christmas Day',
    ]);
  });

  it('has Juneteenth from 2021 only', () => {
    expect(federalHolidays(2020).some((holiday) => holiday.name.startsWith('Juneteenth'))).toBe(false);
    expect(federalHolidays(2020)).toHaveLength(10);
    expect(isFederalHoliday('2020-06-19')).toBe(false);
  });

  it('moves Juneteenth off weekends', () => {
    expect(isFederalHoliday('2021-06-18')).toBe(true); // Saturday 19th -> Friday
    expect(isFederalHoliday('2021-06-19')).toBe(false);
    expect(isFederalHoliday('2022-06-20')).toBe(true); // Sunday 19th -> Monday
    expect(isFederalHoliday('2027-06-18')).toBe(true);
  });

  it('moves Independence Day off weekends', () => {
    expect(isFederalHoliday('2020-07-03')).toBe(true); // Saturday
    expect(isFederalHoliday('2021-07-05')).toBe(true); // Sunday
    expect(isFederalHoliday('2026-07-03')).toBe(true);
    expect(isFederalHoliday('2026-07-04')).toBe(false);
  });

  it("observes a Saturday New Year's Day on 31 December of the year before", () => {
    expect(federalHolidayObservedOn('2021-12-31')?.date).toBe('2022-01-01');
    expect(isFederalHoliday('2023-01-02')).toBe(true); // Sunday 1 January 2023
    expect(isFederalHoliday('2023-11-10')).toBe(true); // Saturday Veterans Day
  });

  it('leaves out Inauguration Day', () => {
    expect(isFederalHoliday('2025-01-20')).toBe(true); // it is MLK Day that year
    expect(federalHolidayObservedOn('2025-01-20')?.name).toBe('Birthday of Martin Luther King, Jr.');
    expect(isFederalHoliday('2029-01-20')).toBe(false);
  });

  it('computes floating holidays for any year', () => {
    const observed = (year: number, name: string) =>
      federalHolidays(year).find((holiday) => holiday.name === name)?.observed;
    expect(observed(2024, 'Thanksgiving Day')).toBe('2024-11-28');
    expect(observed(2025, 'Memorial Day')).toBe('2025-05-26');
    expect(observed(2030, 'Labor Day')).toBe('2030-09-02');
    expect(observed(2100, 'Columbus Day')).toBe('2100-10-11');
  });
});

import { describe, expect, it } from 'vitest';
import {
  earlierPeriodsOfSeason,
  isSeasonTitle,
  periodsOfSeason,
  previousPeriodMonth,
  seasonEndDate,
  seasonOf,
  seasonOfPeriod,
  seasonStartDate,
} from './seasons.js';

describe('seasons', () => {
  it('run 1 September to 31 August', () => {
    expect(seasonStartDate('2026-2027')).toBe('2026-09-01');
    expect(seasonEndDate('2026-2027')).toBe('2027-08-31');
    expect(seasonOf('2026-08-31')).toBe('2025-2026');
    expect(seasonOf('2026-09-01')).toBe('2026-2027');
    expect(seasonOf('2027-01-15')).toBe('2026-2027');
    expect(seasonOfPeriod('2027-08')).toBe('2026-2027');
  });

  it('check their titles', () => {
    expect(isSeasonTitle('2026-2027')).toBe(true);
    expect(isSeasonTitle('2026-2026')).toBe(false);
    expect(isSeasonTitle('2026/2027')).toBe(false);
    expect(() => seasonStartDate('26-27')).toThrow(RangeError);
  });

  it('have twelve periods September to August', () => {
    expect(periodsOfSeason('2026-2027')).toEqual([
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
      '2027-03',
      '2027-04',
      '2027-05',
      '2027-06',
      '2027-07',
      '2027-08',
    ]);
  });

  it('know the months before a period in its season', () => {
    expect(earlierPeriodsOfSeason('2026-09')).toEqual([]);
    expect(earlierPeriodsOfSeason('2026-11')).toEqual(['2026-09', '2026-10']);
    expect(previousPeriodMonth('2026-09')).toBe('2026-08');
  });
});

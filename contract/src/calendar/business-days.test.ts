import { describe, expect, it } from 'vitest';
import { businessDayOnOrAfter, isBusinessDay, nextBusinessDay } from './business-days.js';

describe('business days', () => {
  it('are weekdays that are not observed holidays', () => {
    expect(isBusinessDay('2026-12-10')).toBe(true);
    expect(isBusinessDay('2026-10-10')).toBe(false); // Saturday
    expect(isBusinessDay('2026-10-12')).toBe(false); // Columbus Day
    expect(isBusinessDay('2026-07-03')).toBe(false); // Independence Day observed
  });

  it('nextBusinessDay is strictly after', () => {
    expect(nextBusinessDay('2026-12-10')).toBe('2026-12-11');
    expect(nextBusinessDay('2026-10-09')).toBe('2026-10-13'); // Friday, weekend, Columbus Day
    expect(nextBusinessDay('2026-12-24')).toBe('2026-12-28');
  });

  it('businessDayOnOrAfter keeps a business day', () => {
    expect(businessDayOnOrAfter('2026-12-10')).toBe('2026-12-10');
    expect(businessDayOnOrAfter('2021-12-31')).toBe('2022-01-03');
  });
});

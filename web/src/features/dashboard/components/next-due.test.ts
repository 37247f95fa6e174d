import { describe, expect, it } from 'vitest';
import { nextMonthlyDue } from './dashboard-home';

describe('next monthly due date', () => {
  it('before or on the 10th: last month, due the 10th of this month', () => {
    const r = nextMonthlyDue(new Date(Date.UTC(2026, 10, 10)));
    expect(r.month.toISOString().slice(0, 10)).toBe('2026-10-01');
    expect(r.due.toISOString().slice(0, 10)).toBe('2026-11-10');
  });
  it('after the 10th: this month, due the 10th of next month (across the year end)', () => {
    const r = nextMonthlyDue(new Date(Date.UTC(2026, 11, 11)));
    expect(r.month.toISOString().slice(0, 10)).toBe('2026-12-01');
    expect(r.due.toISOString().slice(0, 10)).toBe('2027-01-10');
  });
});

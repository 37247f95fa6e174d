import { describe, expect, it } from 'vitest';
import { mainAreas } from './menu-items';

describe('the menu of a user of no handler', () => {
  it("hides a handler's own entries from users of no handler (council staff), and only those", () => {
    const handler = mainAreas(true).map((a) => a.key);
    const staff = mainAreas(false).map((a) => a.key);
    expect(handler).toEqual(
      expect.arrayContaining([
        'dashboard',
        'invoices',
        'forms-packages',
        'year-end-forms',
        'transfers',
        'contacts',
        'help',
      ]),
    );
    expect(staff).toEqual(['dashboard', 'position-reports', 'industry-analytics', 'handlers', 'help']);
    expect(handler.filter((k) => !staff.includes(k))).toEqual([
      'invoices',
      'forms-packages',
      'year-end-forms',
      'transfers',
      'contacts',
    ]);
  });
});

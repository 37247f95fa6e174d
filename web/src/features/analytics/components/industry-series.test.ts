import { describe, expect, it } from 'vitest';
import type { IndustryMonth } from '../api/analytics-api';
import { industrySeries, withheldMonths } from './analytics-page';

const figure = (value: number | null, withheld = false) => ({ value, withheld });
const month = (m: string, published: boolean, receipts: ReturnType<typeof figure>): IndustryMonth =>
  ({
    month: m,
    published,
    receipts_improved_native: receipts,
    shipments_inshell: figure(1),
    inventory_inshell: figure(1),
  }) as unknown as IndustryMonth;

describe('industry charts', () => {
  const rows = [
    month('2025-09', true, figure(100)),
    month('2025-10', true, figure(null, true)),
    month('2025-11', false, figure(null)),
  ];
  const months = ['2025-09', '2025-10', '2025-11', '2025-12'];

  it('draws published figures and leaves gaps for withheld and unpublished months', () => {
    expect(industrySeries(rows, months, 'receipts_improved_native')).toEqual([100, null, null, null]);
  });

  it('names the months whose figure is withheld, not those merely unpublished', () => {
    expect(withheldMonths(rows, months, 'receipts_improved_native')).toEqual(['2025-10']);
    expect(withheldMonths(rows, months, 'shipments_inshell')).toEqual([]);
  });
});

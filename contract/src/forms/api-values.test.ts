import { describe, expect, it } from 'vitest';
import { apiAttributesOf } from './api-values.js';

describe('apiAttributesOf', () => {
  it('turns stored columns into API attribute values', () => {
    const attributes = apiAttributesOf('apc_form_5', {
      avg_price_paid_improved_e4: 23_475,
      shellout_yield_e4: '4800',
      shelled_inventory: '10000',
      aug_form_1_amend_reqd: 0,
      date_completed: null,
    });
    expect(attributes.field_avg_price_paid_improved).toBe('2.3475');
    expect(attributes.field_shellout_yield).toBe('0.4800');
    expect(attributes.field_shelled_inventory).toBe(10_000);
    expect(attributes.field_aug_form_1_amend_reqd).toBe(false);
    expect(attributes.field_date_completed).toBeNull();
  });

  it('reads the variety list from its JSON text', () => {
    const attributes = apiAttributesOf('apc_form_1', {
      receipts_by_variety: '[{"variety":"Desirable","pounds":120000}]',
    });
    expect(attributes.field_receipts_by_variety).toEqual([{ variety: 'Desirable', pounds: 120_000 }]);
  });
});

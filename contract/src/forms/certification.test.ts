import { describe, expect, it } from 'vitest';
import { augustAnswerError, certificationErrors, crossFieldErrors, isCertifiable } from './certification.js';

const form5 = {
  field_date_completed: null,
  field_inshell_inventory_improved: 100_000,
  field_inshell_inventory_native: 20_000,
  field_inshell_inventory_substandard: 0,
  field_inshell_committed_domestic: 50_000,
  field_inshell_committed_export: 30_000,
  field_inshell_uncommitted: 40_000, // computed: present in the full form, passed over
  field_avg_price_paid_improved: '2.35',
  field_avg_price_paid_native: '1.10',
  field_avg_price_paid_substandard: '0.00',
  field_shelled_inventory: 10_000,
  field_shelled_committed_domestic: 4_000,
  field_shelled_committed_export: 1_000,
  field_shelled_halves: 6_000,
  field_shelled_pieces: 3_000,
  field_shelled_wip: 1_000,
  field_shellout_yield: '0.4800',
  field_total_inventory_inshell_basis: 140_833,
  field_handled_domestic_improved: 900_000,
  field_handled_domestic_native: 100_000,
  field_handled_domestic_substandard: 5_000,
  field_assessments_owed: '9000.00',
  field_assessments_paid: '9000.00',
  field_assessments_remaining: '0.00',
  field_aug_form_1_amend_reqd: false,
};

describe('certificationErrors', () => {
  it('accepts a complete, consistent form 5', () => {
    expect(certificationErrors('apc_form_5', form5)).toEqual([]);
  });

  it('needs halves + pieces + work in progress to equal the shelled inventory', () => {
    expect(certificationErrors('apc_form_5', { ...form5, field_shelled_wip: 500 })).toEqual([
      {
        field: 'field_shelled_inventory',
        message:
          'field_shelled_halves + field_shelled_pieces + field_shelled_wip (9500 lb) must equal field_shelled_inventory (10000 lb)',
      },
    ]);
  });

  it('refuses commitments above the inventory', () => {
    const errors = certificationErrors('apc_form_5', {
      ...form5,
      field_inshell_committed_export: 80_000,
      field_shelled_committed_export: 7_000,
    });
    expect(errors.map((error) => error.field)).toEqual([
      'field_inshell_committed_domestic',
      'field_shelled_committed_domestic',
    ]);
    expect(errors[0].message).toBe(
      'field_inshell_committed_domestic + field_inshell_committed_export (130000 lb) must not be ' +
        'more than field_inshell_inventory_improved + field_inshell_inventory_native + field_inshell_inventory_substandard (120000 lb)',
    );
  });

  it('needs every entered field that is not optional', () => {
    const { field_shellout_yield: _yield, field_aug_form_1_amend_reqd: _flag, ...incomplete } = form5;
    expect(certificationErrors('apc_form_5', incomplete)).toEqual([
      { field: 'field_shellout_yield', message: 'field_shellout_yield is required' },
      { field: 'field_aug_form_1_amend_reqd', message: 'field_aug_form_1_amend_reqd is required' },
    ]);
  });

  it("needs form 4's responsible handler and first transfer month", () => {
    expect(
      certificationErrors('apc_form_4', { field_responsible_handler: 'receiving', field_first_transfer_month: null }),
    ).toEqual([{ field: 'field_first_transfer_month', message: 'field_first_transfer_month is required' }]);
    expect(
      certificationErrors('apc_form_4', { field_responsible_handler: 'both', field_first_transfer_month: '2026-10' }),
    ).toEqual([
      {
        field: 'field_responsible_handler',
        message: 'field_responsible_handler must be "transferring" or "receiving"',
      },
    ]);
    expect(
      isCertifiable('apc_form_4', { field_responsible_handler: 'transferring', field_first_transfer_month: '2026-10' }),
    ).toBe(true);
  });

  it('lets a "no change" form 1 through with the rest empty', () => {
    expect(certificationErrors('apc_form_1', { field_no_change_flag: true })).toEqual([]);
    expect(certificationErrors('apc_form_1', { field_no_change_flag: false }).length).toBeGreaterThan(5);
  });

  it('needs Mexico dates for Mexico pounds, in order', () => {
    const form2 = {
      field_no_change_flag: false,
      field_mexico_inshell_lb: 1_000,
      field_mexico_shelled_lb: 450,
      field_mexico_ship_date: '2026-11-20',
      field_mexico_return_date: null,
    };
    expect(certificationErrors('apc_form_2', form2)).toEqual([
      {
        field: 'field_mexico_return_date',
        message: 'field_mexico_return_date is required when field_mexico_shelled_lb is more than 0',
      },
    ]);
    expect(certificationErrors('apc_form_2', { ...form2, field_mexico_return_date: '2026-11-02' })).toEqual([
      {
        field: 'field_mexico_return_date',
        message: 'field_mexico_return_date must not be before field_mexico_ship_date',
      },
    ]);
    expect(certificationErrors('apc_form_2', { ...form2, field_mexico_return_date: '2026-11-28' })).toEqual([]);
  });
});

describe('form 5: the August Form 1 answer follows the figures', () => {
  const filled = {
    field_inshell_inventory_improved: 100_000,
    field_inshell_inventory_native: 20_000,
    field_inshell_inventory_substandard: 0,
    field_inshell_committed_domestic: 0,
    field_inshell_committed_export: 0,
    field_avg_price_paid_improved: '2.3475',
    field_avg_price_paid_native: '1.4000',
    field_avg_price_paid_substandard: '0.0000',
    field_shelled_inventory: 0,
    field_shelled_committed_domestic: 0,
    field_shelled_committed_export: 0,
    field_shelled_halves: 0,
    field_shelled_pieces: 0,
    field_shelled_wip: 0,
    field_shellout_yield: '0.4800',
    field_handled_domestic_improved: 0,
    field_handled_domestic_native: 0,
    field_handled_domestic_substandard: 0,
  };

  it('refuses "no" when the August Form 1 shows other inventory, naming the difference', () => {
    // Form 5 inshell 100,000 + 20,000 + 0 = 120,000 lb; the August Form 1 said 118,000: +2,000 lb.
    const errors = certificationErrors('apc_form_5', {
      ...filled,
      field_aug_form_1_inventory_inshell: 118_000,
      field_aug_form_1_inventory_shelled: 0,
      field_aug_form_1_amend_reqd: false,
    });
    expect(errors).toEqual([
      { field: 'field_aug_form_1_amend_reqd', message: expect.stringContaining('difference +2000 lb') },
    ]);
    expect(
      augustAnswerError({
        ...filled,
        field_aug_form_1_inventory_inshell: 118_000,
        field_aug_form_1_inventory_shelled: 0,
        field_aug_form_1_amend_reqd: true,
      }),
    ).toBeUndefined();
  });

  it('accepts "no" when the figures agree, or when there is no August Form 1', () => {
    expect(
      certificationErrors('apc_form_5', {
        ...filled,
        field_aug_form_1_inventory_inshell: 120_000,
        field_aug_form_1_inventory_shelled: 0,
        field_aug_form_1_amend_reqd: false,
      }),
    ).toEqual([]);
    expect(
      certificationErrors('apc_form_5', {
        ...filled,
        field_aug_form_1_inventory_inshell: null,
        field_aug_form_1_inventory_shelled: null,
        field_aug_form_1_amend_reqd: false,
      }),
    ).toEqual([]);
  });
});

describe('crossFieldErrors', () => {
  it('finds a Mexico quantity without its date on a draft, as certification would', () => {
    const draft = { field_mexico_inshell_lb: 1200, field_mexico_ship_date: null };
    expect(crossFieldErrors('apc_form_2', draft)).toEqual([
      {
        field: 'field_mexico_ship_date',
        message: 'field_mexico_ship_date is required when field_mexico_inshell_lb is more than 0',
      },
    ]);
    expect(crossFieldErrors('apc_form_2', { ...draft, field_mexico_ship_date: '2025-10-03' })).toEqual([]);
  });
  it('waits for a value the schemas refuse, and passes over computed fields and "no change"', () => {
    expect(crossFieldErrors('apc_form_2', { field_mexico_inshell_lb: -1 })).toEqual([]);
    expect(
      crossFieldErrors('apc_form_2', {
        field_mexico_inshell_lb: 5,
        field_mexico_ytd_inshell_lb: 9,
        field_no_change_flag: true,
      }),
    ).toEqual([]);
    expect(crossFieldErrors('apc_form_2', { field_mexico_inshell_lb: 0, field_mexico_ytd_inshell_lb: 9 })).toEqual([]);
  });
});

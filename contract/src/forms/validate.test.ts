import { describe, expect, it } from 'vitest';
import { draftUpdateSchema, exportByCountrySchema, pecansPurchasedNonUsSchema } from './form-schemas.js';
import { parseFormAttributes, toJsonApiErrors, validateFormAttributes } from './validate.js';

const errorsOf = (bundle: Parameters<typeof validateFormAttributes>[0], attributes: Record<string, unknown>) =>
  Object.fromEntries(validateFormAttributes(bundle, attributes).map((error) => [error.field, error.message]));

describe('validateFormAttributes on a draft PATCH', () => {
  it('accepts any subset of entered fields and returns stored units', () => {
    const result = parseFormAttributes('apc_form_1', {
      field_receipts_native: 5_000,
      field_receipts_by_variety: [{ variety: ' Desirable ', pounds: 120_000 }],
      field_date_completed: '2026-12-01',
      field_no_change_flag: false,
    });
    expect(result).toEqual({
      ok: true,
      values: {
        receipts_native: 5_000,
        receipts_by_variety: [{ variety: 'Desirable', pounds: 120_000 }],
        date_completed: '2026-12-01',
        no_change_flag: false,
      },
    });
    expect(validateFormAttributes('apc_form_1', {})).toEqual([]);
  });

  it('refuses a computed field, naming it', () => {
    expect(validateFormAttributes('apc_form_1', { field_receipts_total: 100 })).toEqual([
      { field: 'field_receipts_total', message: 'field_receipts_total is computed by the server and cannot be set' },
    ]);
    expect(errorsOf('apc_form_5', { field_assessments_owed: '1.00' }).field_assessments_owed).toBe(
      'field_assessments_owed is computed by the server and cannot be set',
    );
  });

  it('gives one error per bad field, as 422 errors with pointers', () => {
    const errors = validateFormAttributes('apc_form_1', {
      field_receipts_native: -1,
      field_shipments_inshell: 1.5,
      field_inventory_inshell: '100',
      field_committed_export: 10_000_000_001,
      field_date_completed: '2026-02-30',
      field_no_change_flag: 'yes',
      field_made_up: 1,
    });
    expect(Object.fromEntries(errors.map((error) => [error.field, error.message]))).toEqual({
      field_receipts_native: 'field_receipts_native must be a whole number of pounds from 0 to 10,000,000,000',
      field_shipments_inshell: 'field_shipments_inshell must be a whole number of pounds from 0 to 10,000,000,000',
      field_inventory_inshell: 'field_inventory_inshell must be a whole number of pounds from 0 to 10,000,000,000',
      field_committed_export: 'field_committed_export must be a whole number of pounds from 0 to 10,000,000,000',
      field_date_completed: 'field_date_completed must be a real calendar date written YYYY-MM-DD',
      field_no_change_flag: 'field_no_change_flag must be true or false',
      field_made_up: 'field_made_up is not an attribute of apc_form_1',
    });
    const native = errors.filter((error) => error.field === 'field_receipts_native');
    expect(toJsonApiErrors(native)).toEqual([
      {
        status: '422',
        title: 'Unprocessable Entity',
        detail: 'field_receipts_native must be a whole number of pounds from 0 to 10,000,000,000',
        source: { pointer: '/data/attributes/field_receipts_native' },
      },
    ]);
  });

  it('passes over lifecycle attributes, which the server checks', () => {
    expect(
      validateFormAttributes('apc_form_1', { field_certified: true, field_certification_name: 'alice', title: 'x' }),
    ).toEqual([]);
  });

  it('lets dates be cleared with null, but not pounds', () => {
    expect(validateFormAttributes('apc_form_2', { field_mexico_ship_date: null })).toEqual([]);
    expect(errorsOf('apc_form_2', { field_mexico_inshell_lb: null }).field_mexico_inshell_lb).toMatch(/whole number/);
  });

  it('checks variety rows: names, pounds, duplicates, count', () => {
    const rows = (list: unknown) =>
      errorsOf('apc_form_1', { field_receipts_by_variety: list }).field_receipts_by_variety;
    expect(
      rows([
        { variety: 'Stuart', pounds: 1 },
        { variety: 'stuart ', pounds: 2 },
      ]),
    ).toBe('field_receipts_by_variety lists "stuart" twice (row 2)');
    expect(rows([{ variety: '  ', pounds: 1 }])).toBe(
      'field_receipts_by_variety: each variety must be text of 1 to 100 characters (row 1)',
    );
    expect(rows([{ variety: 'x'.repeat(101), pounds: 1 }])).toMatch(/1 to 100 characters/);
    expect(rows([{ variety: 'Stuart', pounds: -5 }])).toMatch(/each row's pounds must be a whole number/);
    expect(rows([{ variety: 'Stuart', pounds: 1, extra: true }])).toBe(
      'field_receipts_by_variety rows must not have "extra" (row 1)',
    );
    expect(rows('Stuart')).toMatch(/must be a list/);
    const many = Array.from({ length: 201 }, (_, index) => ({ variety: `V${index}`, pounds: 1 }));
    expect(rows(many)).toBe('field_receipts_by_variety must have at most 200 rows');
    expect(rows(many.slice(0, 200))).toBeUndefined();
  });

  it('checks prices and ratios as decimal strings, prices to four places', () => {
    const errors = errorsOf('apc_form_5', {
      field_avg_price_paid_improved: 2.35,
      field_avg_price_paid_native: '1.23456',
      field_avg_price_paid_substandard: '-1.00',
      field_shellout_yield: '1.5',
    });
    expect(errors).toEqual({
      field_avg_price_paid_improved:
        'field_avg_price_paid_improved must be a decimal string such as "2.3475", not a number',
      field_avg_price_paid_native: 'field_avg_price_paid_native must have at most 4 decimal places',
      field_avg_price_paid_substandard: 'field_avg_price_paid_substandard must not be negative',
      field_shellout_yield: 'field_shellout_yield must be at most 1.0000',
    });
    // $2.3475 a pound is 23,475 ten-thousandths of a dollar; "2.35" is 23,500.
    expect(
      parseFormAttributes('apc_form_5', {
        field_avg_price_paid_improved: '2.3475',
        field_avg_price_paid_native: '2.35',
        field_shellout_yield: '0.4800',
      }),
    ).toEqual({
      ok: true,
      values: { avg_price_paid_improved: 23_475, avg_price_paid_native: 23_500, shellout_yield: 4800 },
    });
  });

  it('checks form 4 values', () => {
    expect(
      errorsOf('apc_form_4', { field_responsible_handler: 'buyer', field_first_transfer_month: '2026-13' }),
    ).toEqual({
      field_responsible_handler: 'field_responsible_handler must be "transferring" or "receiving"',
      field_first_transfer_month: 'field_first_transfer_month must be a month written YYYY-MM',
    });
    expect(validateFormAttributes('apc_form_4', { field_responsible_handler: 'receiving' })).toEqual([]);
  });

  it('offers the same rules as a zod schema for forms in the browser', () => {
    expect(draftUpdateSchema('apc_form_3').safeParse({ field_no_change_flag: true }).success).toBe(true);
    expect(draftUpdateSchema('apc_form_3').safeParse({ field_total_inshell_lb: 1 }).success).toBe(false);
  });
});

describe('sub-records', () => {
  const purchase = {
    field_import_date: '2026-11-03',
    field_country_of_origin: 'MX',
    field_inshell_lb: 40_000,
    field_shelled_lb: 0,
  };

  it('need every field but the optional ones on creation', () => {
    expect(pecansPurchasedNonUsSchema.safeParse(purchase).success).toBe(true);
    expect(
      validateFormAttributes('pecans_purchased_non_us', { field_country_of_origin: 'MX' }, { mode: 'complete' }),
    ).toEqual([
      { field: 'field_import_date', message: 'field_import_date is required' },
      { field: 'field_inshell_lb', message: 'field_inshell_lb is required' },
      { field: 'field_shelled_lb', message: 'field_shelled_lb is required' },
    ]);
    expect(
      parseFormAttributes('pecans_purchased_non_us', { ...purchase, field_variety: ' Wichita ' }, { mode: 'complete' }),
    ).toMatchObject({ ok: true, values: { variety: 'Wichita', country_of_origin: 'MX' } });
  });

  it('take real ISO country codes other than the US', () => {
    const country = (code: unknown) =>
      errorsOf('export_by_country', {
        field_country: code,
        field_inshell_lb: 1,
        field_shelled_lb: 0,
        field_substandard_lb: 0,
      }).field_country;
    expect(country('CN')).toBeUndefined();
    expect(country('UK')).toBe('field_country must be an ISO 3166-1 alpha-2 country code in capitals, such as "MX"');
    expect(country('cn')).toMatch(/ISO 3166-1/);
    expect(country('CHN')).toMatch(/ISO 3166-1/);
    expect(country('US')).toBe('field_country must be a country other than the United States (US)');
    expect(
      exportByCountrySchema.safeParse({
        field_country: 'VN',
        field_inshell_lb: 1,
        field_shelled_lb: 2,
        field_substandard_lb: 0,
      }).success,
    ).toBe(true);
    expect(errorsOf('pecans_purchased_non_us', { field_country_of_origin: 'US' }).field_country_of_origin).toMatch(
      /other than/,
    );
  });
});

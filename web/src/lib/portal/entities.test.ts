import { describe, expect, it } from 'vitest';
import { deserialize } from '../jsonapi/deserialize';
import { attr, bool, many, one, type ApiEntity } from './entities';

type Invoice = ApiEntity<'node--invoice'>;
type FormsPackage = ApiEntity<'node--reporting_forms_package'>;

const invoice = deserialize<Invoice>({
  data: {
    type: 'node--invoice',
    id: 'i1',
    attributes: { field_invoice_number: 'INV-1', field_amount_due: '12.50', field_paid_date: null },
    relationships: {
      field_reporting_period: { data: { type: 'node--reporting_period', id: 'p1' } },
      field_invoice_pdf: { data: null },
    },
  },
  included: [{ type: 'node--reporting_period', id: 'p1', attributes: { field_period_month: '2026-10' } }],
});

describe('the typed entity readers', () => {
  it('read an attribute as the API sent it, null when it is null or left out', () => {
    expect(attr(invoice, 'field_invoice_number')).toBe('INV-1');
    expect(attr(invoice, 'field_paid_date')).toBeNull();
    expect(attr(invoice, 'field_due_date')).toBeNull();
    expect(attr(null, 'title')).toBeNull();
  });

  it('read a related entity or list, null or empty when it is not in the document', () => {
    expect(attr(one(invoice, 'field_reporting_period'), 'field_period_month')).toBe('2026-10');
    expect(one(invoice, 'field_invoice_pdf')).toBeNull();
    expect(one(invoice, 'field_form_1')).toBeNull();
    const pkg = { id: 'k1', type: 'node--reporting_forms_package' } as FormsPackage;
    expect(many(pkg, 'field_form_1')).toEqual([]);
  });

  it('take a flag as true only when the API sent true', () => {
    const season = { id: 's1', type: 'node--season', field_current_season: true } as ApiEntity<'node--season'>;
    expect(bool(season, 'field_current_season')).toBe(true);
    expect(bool({ ...season, field_current_season: undefined }, 'field_current_season')).toBe(false);
  });

  it("check a field's name against its type (these lines compile only while the names are wrong)", () => {
    // @ts-expect-error: no such attribute of an invoice
    expect(attr(invoice, 'field_invoice_numbr')).toBeNull();
    // @ts-expect-error: field_due_date is an attribute, not a relationship
    expect(one(invoice, 'field_due_date')).toBeNull();
    // @ts-expect-error: field_amount_due is a decimal string, not a flag
    expect(bool(invoice, 'field_amount_due')).toBe(false);
    const amount: string | null = attr(invoice, 'field_amount_due');
    expect(amount).toBe('12.50');
  });
});

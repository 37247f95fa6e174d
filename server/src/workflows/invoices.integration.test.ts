import { assessmentDetail } from '@pecan/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { invoiceDueDate, invoiceLines } from './invoices.js';

describe('invoice lines and due dates', () => {
  it('shows lines in whole cents that add up to the total', () => {
    // A rate of 15 mills (1.5 cents) a pound: 3 lb improved = 45 mills = 4.5 cents, 3 lb native = 4.5 cents,
    // 1 lb substandard = 1.5 cents; total 105 mills = 10.5 cents -> 11 cents (half up, once). Rounding each line
    // half up would print 5 + 5 + 2 = 12 cents under a total of 11; by largest remainder the floors 4 + 4 + 1 = 9
    // get the two missing cents on the first two lines (equal remainders: the earlier line): 5 + 5 + 1 = 11.
    const rate = {
      effectiveFrom: '2000-01-01',
      millsPerPound: { improved: 15, native: 15, substandard: 15 },
      source: 'test',
    };
    const detail = assessmentDetail({ improved: 3, native: 3, substandard: 1 }, '2026-10', [rate]);
    expect(detail.totalCents).toBe(11);
    expect(invoiceLines(detail).map((l) => l.amount)).toEqual(['0.05', '0.05', '0.01']);
    expect(invoiceLines(detail).map((l) => l.rate)).toEqual(['0.0150', '0.0150', '0.0150']);
  });

  it('gives an adjustment issued after the period due date its own days to pay', () => {
    expect(invoiceDueDate('2026-09-10', '2026-11-22', true, 30)).toBe('2026-12-22'); // 22 Nov + 30 days
    expect(invoiceDueDate('2026-12-10', '2026-11-22', true, 30)).toBe('2026-12-10'); // issued before: the period's date
    expect(invoiceDueDate('2026-09-10', '2026-11-22', false, 30)).toBe('2026-09-10'); // a late first invoice is late
  });
});

describeEachDatabase('adjustment invoices', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target, { config: { adjustmentInvoiceDueDays: 45 } });
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('issues an amendment of a paid month as an invoice due days after issue, not overdue at birth', async () => {
    // August 2026 was due 2026-09-10 and its invoice is paid; the demo clock says 2026-11-22.
    const form = await demo.ctx.db
      .selectFrom('apc_form_1 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select(['f.id', 'f.receipts_by_variety', 'p.id as period_id'])
      .where('f.handler_id', '=', demo.handlers['101'])
      .where('p.period_month', '=', '2026-08')
      .where('f.form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const rows = JSON.parse(String(form.receipts_by_variety)) as Array<{ variety: string; pounds: number }>;
    const amended = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: {
          field_receipts_by_variety: rows.map((r, i) => (i === 0 ? { ...r, pounds: r.pounds + 12_345 } : r)),
          field_amendment_reason: 'Weigh tickets found after filing',
          field_certified: true,
          field_certification_name: 'Alice Moreno',
        },
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: form.id } } },
      },
    });
    expect(amended.status, JSON.stringify(amended.body)).toBe(201);
    const invoices = await demo.ctx.db
      .selectFrom('invoices')
      .selectAll()
      .where('handler_id', '=', demo.handlers['101'])
      .where('period_id', '=', form.period_id)
      .orderBy('created')
      .execute();
    expect(invoices).toHaveLength(2);
    expect(invoices[0].invoice_status).toBe('paid');
    expect(invoices[0].due_date).toBe('2026-09-10');
    // 12,345 lb improved more at $0.01 a pound = $123.45, due 2026-11-22 + 45 days = 2027-01-06.
    expect(Number(invoices[1].amount_due_cents)).toBe(12_345);
    expect(invoices[1].due_date).toBe('2027-01-06');
    expect(invoices[1].invoice_status).toBe('open');
  });
});

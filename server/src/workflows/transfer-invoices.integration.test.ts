import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { form1IdOf, invoicesOf as invoicesOfPeriod, periodIdOf } from '../test-support/filings-fixture.js';
import { computedColumns } from './form-figures.js';

/**
 * Who pays the assessment on transferred pecans (986.162, 986.26; decision 0010), through the API, with both
 * handlers' invoices worked by hand. November 2026 (rate: improved 1 cent a pound, native and substandard 0; due
 * 10 December 2026; the demo clock says 22 November). The demo has a countersigned 2026-2027 agreement 101 -> 102
 * naming the receiver responsible; 101 -> 103 has none until the test files one naming the transferring handler.
 */
describeEachDatabase('inter-handler transfers on invoices', (target) => {
  let demo: DemoApp;
  let h: DemoApp['handlers'];
  let periodId = '';
  let seasonId = '';
  let agreement102 = '';

  const formOf = (handler: string, status = 'draft') => form1IdOf(demo, handler, periodId, status);
  const invoicesOf = (handler: string) => invoicesOfPeriod(demo, handler, periodId);
  const lines = (...rows: Array<[string, string, number]>) =>
    rows.map(([to, type, pounds]) => ({ receiving_handler: to, pecan_type: type, pounds }));
  const certify = (name: string) => ({ field_certified: true, field_certification_name: name });

  async function fileNovember(token: string, handler: string, name: string, attributes: Record<string, unknown>) {
    const id = await formOf(handler);
    const response = await api(demo.app, token, 'PATCH', `/jsonapi/node/apc_form_1/${id}`, {
      data: { type: 'node--apc_form_1', id, attributes: { ...attributes, ...certify(name) } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.attributes;
  }

  async function amendAlice(shipments: unknown) {
    const response = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: {
          field_interhandler_shipments: shipments,
          field_amendment_reason: 'Transfer weights corrected',
          ...certify('Alice Moreno'),
        },
        relationships: {
          field_amendment_of: { data: { type: 'node--apc_form_1', id: await formOf(h['101'], 'certified') } },
        },
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  const patchAgreement = (token: string, id: string, attributes: Record<string, unknown>) =>
    api(demo.app, token, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: { type: 'node--apc_form_4', id, attributes },
    });

  beforeAll(async () => {
    demo = await demoApp(target);
    h = demo.handlers;
    periodId = await periodIdOf(demo, '2026-11');
    seasonId = String(
      (await demo.ctx.db.selectFrom('seasons').select('id').where('title', '=', '2026-2027').executeTakeFirstOrThrow())
        .id,
    );
    agreement102 = String(
      (
        await demo.ctx.db
          .selectFrom('apc_form_4')
          .select('id')
          .where('transferring_handler_id', '=', h['101'])
          .where('receiving_handler_id', '=', h['102'])
          .where('season_id', '=', seasonId)
          .where('form_activity', '=', 'active')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('moves the pounds the receiver assumed, and leaves the rest with the transferring handler', async () => {
    const form = await fileNovember(demo.tokens.alice, h['101'], 'Alice Moreno', {
      field_receipts_by_variety: [{ variety: 'Desirable', pounds: 50_000 }],
      field_interhandler_shipments: lines(
        [h['102'], 'improved', 20_000],
        [h['102'], 'native', 5_000],
        [h['103'], 'improved', 8_000],
      ),
    });
    expect(form.field_interhandler_shipped).toBe(33_000); // 20,000 + 5,000 + 8,000
    expect(form.field_assessment_due).toBe('500.00'); // the form keeps its own receipts: 50,000 lb x $0.01
    // 101: $500.00 - 20,000 lb improved x $0.01 ($200.00) - 5,000 lb native x $0 = $300.00. To 103 no agreement: 101
    // pays.
    const [alice] = await invoicesOf(h['101']);
    expect(alice.cents).toBe(30_000);
    expect(alice.lines.map((l) => [l.direction, l.counterparty_number, l.pecan_type, l.pounds, l.amount])).toEqual([
      ['credited', '102', 'improved', 20_000, '-200.00'],
      ['credited', '102', 'native', 5_000, '0.00'],
    ]);
    // 102 has not filed November, and still gets the assumed assessment: $200.00, due with the month.
    const carol = await invoicesOf(h['102']);
    expect(carol).toHaveLength(1);
    expect(carol[0]).toMatchObject({
      number: 'APC-202611-102',
      cents: 20_000,
      form: null,
      due: '2026-12-10',
      status: 'open',
    });
    expect(
      carol[0].lines.map((l) => [l.direction, l.counterparty_name, l.counterparty_number, l.pounds, l.amount]),
    ).toEqual([
      ['assumed', 'Riverbend Pecan Co.', '101', 20_000, '200.00'],
      ['assumed', 'Riverbend Pecan Co.', '101', 5_000, '0.00'],
    ]);
    expect(await invoicesOf(h['103'])).toEqual([]);
  });

  it("reports on form 5 what the season's invoices owe, the moved lines included", async () => {
    // After the test above: 101's November credits $200.00 to 102, which assumes it.
    const staff = { ctx: demo.ctx, viewer: { userId: 'test', name: 'test', role: 'staff' as const, handlerId: null } };
    const owedOnForm5 = async (handler: string) =>
      Number(
        (await computedColumns(staff, 'apc_form_5', { handler_id: handler, season_id: seasonId }))
          .assessments_owed_cents,
      );
    const seasonSum = async (table: 'invoices' | 'apc_form_1', column: string, handler: string) => {
      let query = demo.ctx.db
        .selectFrom(`${table} as t`)
        .innerJoin('reporting_periods as p', 'p.id', 't.period_id')
        .select((eb) => eb.fn.coalesce(eb.fn.sum(`t.${column}`), eb.lit(0)).as('cents'))
        .where('t.handler_id', '=', handler)
        .where('p.season_id', '=', seasonId);
      if (table === 'apc_form_1') query = query.where('t.form_status', '=', 'certified');
      return Number((await query.executeTakeFirstOrThrow()).cents);
    };
    for (const [handler, moved] of [
      [h['101'], -20_000],
      [h['102'], 20_000],
    ] as const) {
      const owed = await owedOnForm5(handler);
      expect(owed).toBe(await seasonSum('invoices', 'amount_due_cents', handler));
      expect(owed).toBe((await seasonSum('apc_form_1', 'assessment_due_cents', handler)) + moved);
    }
  });

  it('moves nothing under an agreement naming the transferring handler responsible', async () => {
    const filed = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_4', {
      data: {
        type: 'node--apc_form_4',
        attributes: {
          field_responsible_handler: 'transferring',
          field_first_transfer_month: '2026-11',
          ...certify('Alice Moreno'),
        },
        relationships: {
          field_receiving_handler: { data: { type: 'node--handler', id: h['103'] } },
          field_season: { data: { type: 'node--season', id: seasonId } },
        },
      },
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    expect(
      (
        await patchAgreement(demo.tokens.dave, filed.body.data.id, {
          field_receiving_certified: true,
          field_receiving_certification_name: 'Dave Okafor',
          field_receiving_certification_title: 'Plant Manager',
        })
      ).status,
    ).toBe(200);
    expect((await invoicesOf(h['101']))[0].cents).toBe(30_000);
    expect(await invoicesOf(h['103'])).toEqual([]);
  });

  it('shows the receiver the counterparty and pounds, and nothing else of the other handler', async () => {
    const list = await api(
      demo.app,
      demo.tokens.carol,
      'GET',
      '/jsonapi/node/invoice?filter[field_reporting_period.id]=' + periodId,
    );
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const line = list.body.data[0].attributes.field_transfer_lines[0];
    expect(Object.keys(line).sort()).toEqual([
      'amount',
      'counterparty_name',
      'counterparty_number',
      'direction',
      'mills_per_pound',
      'pecan_type',
      'pounds',
    ]);
    // The transferring handler's form and invoice stay its own.
    const aliceForm = await formOf(h['101'], 'certified');
    expect([403, 404]).toContain(
      (await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_1/${aliceForm}`)).status,
    );
    const aliceInvoice = String(
      (
        await demo.ctx.db
          .selectFrom('invoices')
          .select('id')
          .where('handler_id', '=', h['101'])
          .where('period_id', '=', periodId)
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect([403, 404]).toContain(
      (await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/invoice/${aliceInvoice}`)).status,
    );
    // Nor can the receiver write the lines: not on the other's form, not on its invoice.
    const carolDraft = await formOf(h['102']);
    const written = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_1/${carolDraft}`, {
      data: {
        type: 'node--apc_form_1',
        id: carolDraft,
        attributes: { field_interhandler_shipments: lines([h['101'], 'improved', 1]) },
      },
    });
    expect([403, 404]).toContain(written.status);
    const invoiceWrite = await api(
      demo.app,
      demo.tokens.carol,
      'PATCH',
      `/jsonapi/node/invoice/${list.body.data[0].id}`,
      {
        data: {
          type: 'node--invoice',
          id: list.body.data[0].id,
          attributes: { field_transfer_lines: [] },
        },
      },
    );
    expect(invoiceWrite.status).toBeGreaterThanOrEqual(400);
    expect(invoiceWrite.status).toBeLessThan(500);
    // A line naming the filer itself or no handler at all is refused, and nothing is saved.
    const self = await api(demo.app, demo.tokens.carol, 'PATCH', `/jsonapi/node/apc_form_1/${carolDraft}`, {
      data: {
        type: 'node--apc_form_1',
        id: carolDraft,
        attributes: { field_interhandler_shipments: lines([h['102'], 'improved', 1]) },
      },
    });
    expect(self.status).toBe(422);
    const unknown = await api(demo.app, demo.tokens.carol, 'PATCH', `/jsonapi/node/apc_form_1/${carolDraft}`, {
      data: {
        type: 'node--apc_form_1',
        id: carolDraft,
        attributes: { field_interhandler_shipments: [{ receiving_handler: 'x', pecan_type: 'pecan', pounds: -1 }] },
      },
    });
    expect(unknown.status).toBe(422);
  });

  it('follows amendments of either side', async () => {
    await amendAlice(lines([h['102'], 'improved', 30_000]));
    // 101: $500.00 - $300.00 = $200.00; 102: $300.00. Both invoices were open: revised, none added.
    expect((await invoicesOf(h['101'])).map((i) => i.cents)).toEqual([20_000]);
    expect((await invoicesOf(h['102'])).map((i) => i.cents)).toEqual([30_000]);

    await fileNovember(demo.tokens.carol, h['102'], 'Carol Jensen', {
      field_receipts_by_variety: [{ variety: 'Pawnee', pounds: 10_000 }],
    });
    // 102 files at last: its own 10,000 lb x $0.01 = $100.00 + $300.00 assumed = $400.00, on the same invoice.
    const [carol] = await invoicesOf(h['102']);
    expect(carol.cents).toBe(40_000);
    expect(carol.form).not.toBeNull();
  });

  it('issues an adjustment when a paid invoice changes', async () => {
    const [carol] = await invoicesOf(h['102']);
    const id = String(
      (
        await demo.ctx.db
          .selectFrom('invoices')
          .select('id')
          .where('invoice_number', '=', carol.number)
          .executeTakeFirstOrThrow()
      ).id,
    );
    const paid = await api(demo.app, demo.tokens.staff, 'POST', `/api/council/invoices/${id}/paid`, {
      paid_date: '2026-11-22',
      reference: 'ACH-1',
    });
    expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300);
    await amendAlice(lines([h['102'], 'improved', 25_000]));
    // 102 now owes $100.00 + $250.00 = $350.00, paid $400.00: a credit of $50.00, due with the month (issued before
    // it).
    const after = await invoicesOf(h['102']);
    expect(after.map((i) => [i.number, i.cents, i.status, i.due])).toEqual([
      ['APC-202611-102', 40_000, 'paid', '2026-12-10'],
      ['APC-202611-102-A1', -5_000, 'open', '2026-12-10'],
    ]);
    expect((await invoicesOf(h['101'])).map((i) => i.cents)).toEqual([25_000]); // $500.00 - $250.00
  });

  it('refuses to change a countersigned agreement of a closed season, and puts the assessment back when cancelled', async () => {
    expect((await api(demo.app, demo.tokens.staff, 'POST', `/api/council/seasons/${seasonId}/close`)).status).toBe(200);
    const refused = await patchAgreement(demo.tokens.alice, agreement102, { field_form_activity: 'cancelled' });
    expect(refused.status).toBe(409);
    expect((await invoicesOf(h['101'])).map((i) => i.cents)).toEqual([25_000]);
    expect((await api(demo.app, demo.tokens.staff, 'POST', `/api/council/seasons/${seasonId}/reopen`)).status).toBe(
      200,
    );

    expect((await patchAgreement(demo.tokens.alice, agreement102, { field_form_activity: 'cancelled' })).status).toBe(
      200,
    );
    // No agreement: 101 pays its $500.00 again; 102 owes its own $100.00, billed $400.00 - $50.00: the open credit
    // becomes $100.00 - $400.00 = -$300.00, and it names no transfer any more.
    const [alice] = await invoicesOf(h['101']);
    expect([alice.cents, alice.lines]).toEqual([50_000, []]);
    const carol = await invoicesOf(h['102']);
    expect(carol.map((i) => i.cents)).toEqual([40_000, -30_000]);
    expect(carol[1].lines).toEqual([]);
  });
});

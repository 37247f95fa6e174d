import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, councilCall } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { portalDb } from '../db/portal-tables.js';
import { form1IdOf, invoicesOf, periodIdOf } from '../test-support/filings-fixture.js';
import { keepStaleForm1 } from './stale-year-to-date.js';
import { markInvoicePaid } from './invoices.js';

const ROUNDS = 10;

/**
 * Two requests through the API at once, each in its own transaction, that read the same rows before writing: on
 * PostgreSQL the second would read before the first commits (SQLite runs them one after the other).
 *
 * Two handlers certify at the same moment, and both certifications settle the same invoice: 102's November, which
 * holds its own assessment and the lines it assumes from 101 under the demo's countersigned 2026-2027 agreement
 * (receiver responsible). November 2026: improved 1 cent a pound.
 */
describeEachDatabase('two writes at once', (target) => {
  let demo: DemoApp;
  let h: DemoApp['handlers'];
  let periodId = '';

  const novemberForm = (handler: string, status: 'draft' | 'certified') => form1IdOf(demo, handler, periodId, status);
  const invoiceCents = async (handler: string) => (await invoicesOf(demo, handler, periodId)).map((i) => i.cents);

  /** The first round certifies both drafts; every later one certifies an amendment of each, again both at once. */
  async function certify(token: string, handler: string, name: string, attributes: Record<string, unknown>) {
    const certification = { ...attributes, field_certified: true, field_certification_name: name };
    if (await hasDraft(handler)) {
      const id = await novemberForm(handler, 'draft');
      return api(demo.app, token, 'PATCH', `/jsonapi/node/apc_form_1/${id}`, {
        data: { type: 'node--apc_form_1', id, attributes: certification },
      });
    }
    const current = await novemberForm(handler, 'certified');
    return api(demo.app, token, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: { ...certification, field_amendment_reason: 'Weights corrected' },
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: current } } },
      },
    });
  }
  const hasDraft = async (handler: string) =>
    (await demo.ctx.db
      .selectFrom('apc_form_1')
      .select('id')
      .where('handler_id', '=', handler)
      .where('period_id', '=', periodId)
      .where('form_status', '=', 'draft')
      .executeTakeFirst()) !== undefined;

  beforeAll(async () => {
    demo = await demoApp(target);
    h = demo.handlers;
    periodId = await periodIdOf(demo, '2026-11');
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('lets both succeed, and bills the receiver its own assessment plus the lines it assumed', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const shipped = 20_000 + round * 100;
      const ownReceipts = 10_000 + round;
      const [alice, carol] = await Promise.all([
        certify(demo.tokens.alice, h['101'], 'Alice Moreno', {
          field_receipts_by_variety: [{ variety: 'Desirable', pounds: 50_000 }],
          field_interhandler_shipments: [{ receiving_handler: h['102'], pecan_type: 'improved', pounds: shipped }],
        }),
        certify(demo.tokens.carol, h['102'], 'Carol Jensen', {
          field_receipts_by_variety: [{ variety: 'Pawnee', pounds: ownReceipts }],
        }),
      ]);
      for (const answer of [alice, carol])
        expect(answer.status, `round ${round}: ${JSON.stringify(answer.body)}`).toBe(round === 0 ? 200 : 201);
      // One open invoice each, revised every round: 102 owes its own pounds plus those it assumed, a cent a pound;
      // 101 its 50,000 less those.
      expect([round, await invoiceCents(h['102'])]).toEqual([round, [ownReceipts + shipped]]);
      expect([round, await invoiceCents(h['101'])]).toEqual([round, [50_000 - shipped]]);
    }
  });

  it('never refuses a certification because staff recorded a payment of the invoice it settles at that moment', async () => {
    // After the first test: 102 assumes 101's 20,900 lb of November, and its November invoice is open.
    const assumed = 20_900;
    for (let round = 0; round < 5; round++) {
      const open = await demo.ctx.db
        .selectFrom('invoices')
        .select('id')
        .where('handler_id', '=', h['102'])
        .where('period_id', '=', periodId)
        .where('invoice_status', '=', 'open')
        .executeTakeFirstOrThrow();
      const ownReceipts = 11_000 + round * 1_000;
      const [paid, carol] = await Promise.all([
        api(demo.app, demo.tokens.staff, 'POST', `/api/council/invoices/${open.id}/paid`, {
          paid_date: '2026-11-22',
          reference: `ACH-${round}`,
        }),
        certify(demo.tokens.carol, h['102'], 'Carol Jensen', {
          field_receipts_by_variety: [{ variety: 'Pawnee', pounds: ownReceipts }],
        }),
      ]);
      expect(carol.status, `round ${round}: ${JSON.stringify(carol.body.errors)}`).toBe(201);
      // Staff are refused only when the certification revised the invoice first: they paid an amount gone by.
      expect([200, 409], `round ${round}: ${JSON.stringify(paid.body)}`).toContain(paid.status);
      const cents = await invoiceCents(h['102']);
      expect([round, cents.reduce((sum, c) => sum + c, 0)]).toEqual([round, ownReceipts + assumed]);
    }
  });

  it('holds a certification back while staff record a payment of the invoice it settles, then bills the change apart', async () => {
    // Staff's payment, in a transaction held open: the certification that settles the same invoice must wait for it,
    // then leave the paid invoice as paid and bill the change on an adjustment. (Without the payment's settlement
    // lock, PostgreSQL lets the certification read the invoice as still open, and its revision fails on the paid row.)
    const open = await demo.ctx.db
      .selectFrom('invoices')
      .select(['id', 'amount_due_cents'])
      .where('handler_id', '=', h['102'])
      .where('period_id', '=', periodId)
      .where('invoice_status', '=', 'open')
      .executeTakeFirstOrThrow();
    const staff = await demo.ctx.db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('name', '=', 'staff')
      .executeTakeFirstOrThrow();
    let paid!: () => void;
    const recorded = new Promise<void>((resolve) => (paid = resolve));
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const payment = demo.ctx.db.transaction().execute(async (trx) => {
      const viewer = { userId: staff.id, name: staff.name, role: 'staff' as const, handlerId: null };
      await markInvoicePaid({ ctx: { ...demo.ctx, db: trx }, viewer }, open.id, '2026-11-23', 'ACH-held');
      paid();
      await committed;
    });
    await recorded;
    const certification = certify(demo.tokens.carol, h['102'], 'Carol Jensen', {
      field_receipts_by_variety: [{ variety: 'Pawnee', pounds: 17_000 }],
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await payment;
    const answer = await certification;
    expect(answer.status, JSON.stringify(answer.body.errors)).toBe(201);
    const invoices = await invoicesOf(demo, h['102'], periodId);
    const kept = await demo.ctx.db
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', open.id)
      .executeTakeFirstOrThrow();
    expect([kept.invoice_status, kept.amount_due_cents]).toEqual(['paid', open.amount_due_cents]);
    // 102's own 17,000 lb and the 20,900 it assumes from 101 (the tests above), a cent a pound, over its invoices:
    // the ones paid before and now, and one open adjustment.
    expect(invoices.filter((i) => i.status === 'open')).toHaveLength(1);
    expect(invoices.map((i) => i.cents).reduce((sum, c) => sum + c, 0)).toBe(17_000 + 20_900);
  });

  it('makes one amendment of a version two users amend at once, and refuses the other', async () => {
    const august = await demo.ctx.db
      .selectFrom('apc_form_1 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select(['f.id', 'f.period_id'])
      .where('f.handler_id', '=', h['101'])
      .where('p.period_month', '=', '2026-08')
      .where('f.form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const amend = (token: string, name: string) =>
      api(demo.app, token, 'POST', '/jsonapi/node/apc_form_1', {
        data: {
          type: 'node--apc_form_1',
          attributes: {
            field_amendment_reason: `${name} found a weigh ticket`,
            field_certified: true,
            field_certification_name: name,
          },
          relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: august.id } } },
        },
      });
    const answers = await Promise.all([amend(demo.tokens.alice, 'Alice Moreno'), amend(demo.tokens.bob, 'Bob Tran')]);
    expect(answers.map((r) => r.status).sort(), JSON.stringify(answers.map((r) => r.body.errors))).toEqual([201, 409]);
    const versions = await demo.ctx.db
      .selectFrom('apc_form_1')
      .select(['amendment_number', 'form_status'])
      .where('handler_id', '=', h['101'])
      .where('period_id', '=', august.period_id)
      .orderBy('amendment_number')
      .execute();
    expect(versions.map((v) => [Number(v.amendment_number), v.form_status])).toEqual([
      [0, 'superseded'],
      [1, 'certified'],
    ]);
  });

  it('lets two users change different rows of one form 3 draft at once, each row in a place of its own', async () => {
    const form = await demo.ctx.db
      .selectFrom('apc_form_3')
      .select('id')
      .where('handler_id', '=', h['101'])
      .where('period_id', '=', periodId)
      .where('form_status', '=', 'draft')
      .executeTakeFirstOrThrow();
    const rows = () =>
      demo.ctx.db
        .selectFrom('export_by_country')
        .select(['id', 'country', 'position', 'inshell_lb'])
        .where('form_id', '=', form.id)
        .execute();
    const taken = new Set((await rows()).map((r) => r.country));
    const [first, second] = ['NZ', 'CL', 'PE', 'ZA', 'KE'].filter((c) => !taken.has(c));
    const add = (token: string, country: string) =>
      api(demo.app, token, 'POST', '/jsonapi/node/export_by_country', {
        data: {
          type: 'node--export_by_country',
          attributes: { field_country: country, field_inshell_lb: 1000, field_shelled_lb: 0, field_substandard_lb: 0 },
          relationships: { field_form: { data: { type: 'node--apc_form_3', id: form.id } } },
        },
      });
    const change = (token: string, id: string, pounds: number) =>
      api(demo.app, token, 'PATCH', `/jsonapi/node/export_by_country/${id}`, {
        data: { type: 'node--export_by_country', id, attributes: { field_inshell_lb: pounds } },
      });
    const remove = (token: string, id: string) =>
      api(demo.app, token, 'DELETE', `/jsonapi/node/export_by_country/${id}`);
    const totalMatchesRows = async (round: number) => {
      const total = await demo.ctx.db
        .selectFrom('apc_form_3')
        .select('total_inshell_lb')
        .where('id', '=', form.id)
        .executeTakeFirstOrThrow();
      const sum = (await rows()).reduce((s, r) => s + Number(r.inshell_lb), 0);
      expect([round, Number(total.total_inshell_lb)]).toEqual([round, sum]);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const added = await Promise.all([add(demo.tokens.alice, first), add(demo.tokens.bob, second)]);
      expect(
        added.map((r) => r.status),
        `round ${round}: ${JSON.stringify(added.map((r) => r.body.errors))}`,
      ).toEqual([201, 201]);
      const positions = (await rows()).map((r) => Number(r.position));
      expect([round, new Set(positions).size]).toEqual([round, positions.length]);
      await totalMatchesRows(round);
      const [a, b] = added.map((r) => String(r.body.data.id));
      const changed = await Promise.all([change(demo.tokens.alice, a, 2000 + round), change(demo.tokens.bob, b, 3000)]);
      expect(
        changed.map((r) => r.status),
        `round ${round}: ${JSON.stringify(changed.map((r) => r.body.errors))}`,
      ).toEqual([200, 200]);
      await totalMatchesRows(round);
      const removed = await Promise.all([remove(demo.tokens.alice, a), remove(demo.tokens.bob, b)]);
      expect(
        removed.map((r) => r.status),
        `round ${round}: ${JSON.stringify(removed.map((r) => r.body))}`,
      ).toEqual([204, 204]);
      await totalMatchesRows(round);
    }
  });

  it("keeps a handler's stale year-to-date right when two of its months are amended at once", async () => {
    // 102's September and October amended together: October's new version is computed with the September its
    // transaction sees, so whichever commits last must check with the other's version (migration 016's table).
    const kept = () =>
      demo.ctx.db
        .selectFrom('form1_stale_year_to_date')
        .select(['form_id', 'figures'])
        .where('handler_id', '=', h['102'])
        .orderBy('form_id')
        .execute();
    for (let round = 0; round < 5; round++) {
      const amend = async (month: string, attributes: Record<string, unknown>) => {
        const current = await form1IdOf(demo, h['102'], await periodIdOf(demo, month), 'certified');
        return api(demo.app, demo.tokens.carol, 'POST', '/jsonapi/node/apc_form_1', {
          data: {
            type: 'node--apc_form_1',
            attributes: {
              ...attributes,
              field_amendment_reason: 'Weights corrected',
              field_certified: true,
              field_certification_name: 'Carol Jensen',
            },
            relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: current } } },
          },
        });
      };
      const answers = await Promise.all([
        amend('2026-09', { field_shipments_inshell: 30_000 + round * 1_000 }),
        amend('2026-10', { field_receipts_native: 100 + round }),
      ]);
      expect(
        answers.map((r) => r.status),
        JSON.stringify(answers.map((r) => r.body.errors)),
      ).toEqual([201, 201]);
      const asKept = await kept();
      await keepStaleForm1(portalDb(demo.ctx.db), h['102']);
      expect([round, asKept]).toEqual([round, await kept()]);
    }
  });

  describe('staff setting up a season twice at once', () => {
    const rowsWhere = async (table: 'seasons' | 'reporting_periods', column: string, value: string) =>
      (
        await demo.ctx.db
          .selectFrom(table)
          .select('id')
          .where(column as never, '=', value)
          .execute()
      ).length;

    it('makes one season of a crop year, and answers both with it', async () => {
      for (let round = 0; round < 5; round++) {
        const create = () =>
          councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/seasons', { start_year: 2040 + round });
        const answers = await Promise.all([create(), create()]);
        expect([round, answers.map((r) => r.status).sort()], answers[0].text).toEqual([round, [200, 201]]);
        expect(answers[0].body.data.id).toBe(answers[1].body.data.id);
        expect([round, await rowsWhere('seasons', 'title', `${2040 + round}-${2041 + round}`)]).toEqual([round, 1]);
      }
    });

    it('opens a month once, with its season, one package a handler, when staff open it twice at once', async () => {
      const active = (
        await demo.ctx.db.selectFrom('handlers').select('id').where('handler_status', '=', 'active').execute()
      ).length;
      for (let round = 0; round < 5; round++) {
        const month = `${2050 + round}-10`;
        const open = () =>
          councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/periods', { period_month: month });
        const answers = await Promise.all([open(), open()]);
        expect([round, answers.map((r) => r.status)], answers[0].text).toEqual([round, [201, 201]]);
        expect(answers[0].body.period_id).toBe(answers[1].body.period_id);
        expect(answers.map((r) => r.body.packages_created as number).sort()).toEqual([0, active]);
        expect([round, await rowsWhere('reporting_periods', 'period_month', month)]).toEqual([round, 1]);
        expect([round, await rowsWhere('seasons', 'title', `${2050 + round}-${2051 + round}`)]).toEqual([round, 1]);
      }
    });
  });

  describe('two of a kind filed at once', () => {
    /** A past season of its own for each round (each test files another kind), so a round starts with none filed. */
    const seasonOfRound = async (round: number) => {
      const created = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/seasons', {
        start_year: 2010 + round,
      });
      expect([200, 201], created.text).toContain(created.status);
      return String(created.body.data.id);
    };
    const statuses = (answers: { status: number }[]) => answers.map((r) => r.status).sort();
    const details = (answers: { body: { errors?: { detail: string }[] } }[]) =>
      answers.flatMap((r) => r.body.errors ?? []).map((e) => e.detail);

    it('makes one year-end form of a handler and season, and refuses the other', async () => {
      const start = (token: string, season: string) =>
        api(demo.app, token, 'POST', '/jsonapi/node/apc_form_5', {
          data: {
            type: 'node--apc_form_5',
            attributes: { field_shelled_inventory: 1000 },
            relationships: { field_season: { data: { type: 'node--season', id: season } } },
          },
        });
      for (let round = 0; round < 5; round++) {
        const season = await seasonOfRound(round);
        const answers = await Promise.all([start(demo.tokens.alice, season), start(demo.tokens.bob, season)]);
        expect([round, statuses(answers)], JSON.stringify(details(answers))).toEqual([round, [201, 409]]);
        expect(details(answers)).toEqual([
          'This season already has a year-end form: edit it, or amend it once certified.',
        ]);
        const forms = await demo.ctx.db
          .selectFrom('apc_form_5')
          .select('id')
          .where('handler_id', '=', h['101'])
          .where('season_id', '=', season)
          .execute();
        expect([round, forms.length]).toEqual([round, 1]);
      }
    });

    it('confirms the packet of a handler and season once, and tells the other why not on both databases', async () => {
      const confirm = (token: string, season: string) =>
        api(demo.app, token, 'POST', '/jsonapi/node/handler_packet_confirmation', {
          data: {
            type: 'node--handler_packet_confirmation',
            attributes: { field_handler_packet_confirm: true },
            relationships: {
              field_handler: { data: { type: 'node--handler', id: h['101'] } },
              field_season: { data: { type: 'node--season', id: season } },
            },
          },
        });
      for (let round = 0; round < 5; round++) {
        const season = await seasonOfRound(round);
        const answers = await Promise.all([confirm(demo.tokens.alice, season), confirm(demo.tokens.bob, season)]);
        expect([round, statuses(answers)], JSON.stringify(details(answers))).toEqual([round, [201, 409]]);
        expect(details(answers)[0]).toMatch(/^This handler already has a packet confirmation for \d{4}-\d{4}: update/);
      }
    });

    it('files one active transfer agreement of a pair and season, and refuses the other', async () => {
      const file = (token: string) =>
        api(demo.app, token, 'POST', '/jsonapi/node/apc_form_4', {
          data: {
            type: 'node--apc_form_4',
            attributes: { field_responsible_handler: 'transferring', field_first_transfer_month: '2026-12' },
            relationships: {
              field_transferring_handler: { data: { type: 'node--handler', id: h['102'] } },
              field_receiving_handler: { data: { type: 'node--handler', id: h['103'] } },
              field_season: { data: { type: 'node--season', id: currentSeason } },
            },
          },
        });
      const seasons = await api(
        demo.app,
        demo.tokens.carol,
        'GET',
        '/jsonapi/node/season?filter[field_current_season]=1',
      );
      const currentSeason = String(seasons.body.data[0].id);
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all([file(demo.tokens.carol), file(demo.tokens.staff)]);
        expect([round, statuses(answers)], JSON.stringify(details(answers))).toEqual([round, [201, 409]]);
        expect(details(answers)[0]).toMatch(/^There is already an active transfer agreement with/);
        // Cancelled, it leaves the pair free for the next round's filing.
        const id = String(answers.find((r) => r.status === 201)!.body.data.id);
        const cancel = await api(demo.app, demo.tokens.carol, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
          data: { type: 'node--apc_form_4', id, attributes: { field_form_activity: 'cancelled' } },
        });
        expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      }
    });
  });
});

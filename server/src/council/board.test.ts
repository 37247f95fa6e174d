import { form1ContextMonths, staleForm1Months, type BoardRow, type CertifiedForm1Month } from '@pecan/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { portalDb } from '../db/portal-tables.js';
import type { Row } from '../jsonapi/resource.js';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { form1IdOf, periodIdOf } from '../test-support/filings-fixture.js';
import { certifiedForm1Month, keepStaleForm1 } from '../workflows/stale-year-to-date.js';
import { buildBoard, filingStatus } from './board.js';
import { todayIn } from './http.js';

/**
 * The board's narrow reads (only the columns and handlers the stale check uses) give what the whole rows gave: every
 * month's board, for every handler and for one, against the board computed the plain way from every column of every
 * version, on the demo data with an amended earlier month (a stale later month) and an amendment in progress.
 */
describeEachDatabase('submissions board against whole rows', (target) => {
  let demo: DemoApp;

  /** The board's rows as they were computed before the narrow reads: whole rows, a list of every handler's id. */
  async function wholeRowsBoard(periodId: string): Promise<BoardRow[]> {
    const db = portalDb(demo.ctx.db);
    const period = await db
      .selectFrom('reporting_periods')
      .selectAll()
      .where('id', '=', periodId)
      .executeTakeFirstOrThrow();
    const handlers = await db
      .selectFrom('handlers')
      .select(['id', 'handler_number', 'title'])
      .where('handler_status', '=', 'active')
      .orderBy('handler_number')
      .execute();
    const forms = ['apc_form_1', 'apc_form_2', 'apc_form_3'] as const;
    const versions = new Map<string, Row[]>();
    for (const form of forms) {
      const rows = (await db
        .selectFrom(form)
        .selectAll()
        .where('period_id', '=', periodId)
        .orderBy('amendment_number')
        .execute()) as Row[];
      for (const r of rows) {
        const key = `${form} ${String(r.handler_id)}`;
        versions.set(key, [...(versions.get(key) ?? []), { ...r, amendment_number: Number(r.amendment_number) }]);
      }
    }
    const certified = (await db
      .selectFrom('apc_form_1 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .selectAll('f')
      .select('p.period_month')
      .where('f.form_status', '=', 'certified')
      .where(
        'f.handler_id',
        'in',
        handlers.map((h) => h.id),
      )
      .where('p.period_month', 'in', [period.period_month, ...form1ContextMonths(period.period_month)])
      .execute()) as Row[];
    const staleOf = (handlerId: string) => {
      const months: CertifiedForm1Month[] = certified
        .filter((r) => r.handler_id === handlerId)
        .map((r) => certifiedForm1Month(r));
      return staleForm1Months(months, period.period_month).find((m) => m.month === period.period_month)?.figures;
    };
    return handlers.flatMap((h) =>
      forms.map((form) => ({
        handler_id: h.id,
        handler_number: h.handler_number,
        handler_name: h.title,
        form,
        due_date: period.due_date,
        ...filingStatus(
          (versions.get(`${form} ${h.id}`) ?? []) as unknown as Parameters<typeof filingStatus>[0],
          period.due_date,
          todayIn(demo.ctx),
        ),
        stale_year_to_date: form === 'apc_form_1' ? (staleOf(h.id) ?? null) : null,
      })),
    );
  }

  /** Handler 101's current certified form 1 of `month`, amended through the API (certified unless `draft`). */
  async function amendForm1(month: string, attributes: Record<string, unknown>, draft = false) {
    const currentId = await form1IdOf(demo, demo.handlers['101'], await periodIdOf(demo, month), 'certified');
    const response = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: {
          ...attributes,
          field_amendment_reason: 'Corrected shipments',
          ...(draft ? {} : { field_certified: true, field_certification_name: 'Alice Moreno' }),
        },
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: currentId } } },
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  beforeAll(async () => {
    demo = await demoApp(target);
    // September amended after October was certified: October's carried figures go stale.
    await amendForm1('2026-09', { field_shipments_inshell: 12_345, field_receipts_native: 777 });
    // An amendment of August in progress (a draft): the board shows it, the stale check ignores it.
    await amendForm1('2026-08', { field_shipments_shelled: 4_321 }, true);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const periodsOf = () =>
    portalDb(demo.ctx.db)
      .selectFrom('reporting_periods')
      .select(['id', 'period_month'])
      .orderBy('period_month')
      .execute();

  /** Every month's board, kept stale check (the default) and computed (`stale-kept` off), against the whole rows. */
  async function expectEveryMonthAsWholeRows(): Promise<number> {
    const computed = { ...demo.ctx, config: { ...demo.ctx.config, mechanisms: { ...demo.ctx.config.mechanisms } } };
    computed.config.mechanisms['stale-kept'] = false;
    let staleRows = 0;
    for (const p of await periodsOf()) {
      const expected = await wholeRowsBoard(p.id);
      for (const ctx of [demo.ctx, computed]) {
        const board = await buildBoard(ctx, { value: { period_id: p.id }, problems: [] });
        expect(board.data, p.period_month).toEqual(expected);
      }
      staleRows += expected.filter((r) => r.stale_year_to_date !== null).length;
    }
    return staleRows;
  }

  /** Handler 101's form 1 of `month` with stale figures on the board (kept or not, they are the same). */
  async function staleOf101(month: string) {
    const board = await buildBoard(demo.ctx, {
      value: { period_id: await periodIdOf(demo, month), handler: '101' },
      problems: [],
    });
    return board.data.find((r) => r.form === 'apc_form_1')!.stale_year_to_date;
  }

  it("gives every month's rows and stale figures as the whole rows do, for all handlers and for one", async () => {
    const periods = await portalDb(demo.ctx.db)
      .selectFrom('reporting_periods')
      .select(['id', 'period_month'])
      .orderBy('period_month')
      .execute();
    expect(periods.length).toBeGreaterThan(3);
    let staleRows = 0;
    let amendmentsInProgress = 0;
    for (const p of periods) {
      const expected = await wholeRowsBoard(p.id);
      expect(await staleRowsKept(p.id), p.period_month).toBe(expected.filter((r) => r.stale_year_to_date).length);
      const board = await buildBoard(demo.ctx, { value: { period_id: p.id }, problems: [] });
      expect(board.data, p.period_month).toEqual(expected);
      const one = await buildBoard(demo.ctx, { value: { period_id: p.id, handler: '101' }, problems: [] });
      expect(one.data, p.period_month).toEqual(expected.filter((r) => r.handler_number === '101'));
      // Page by page (one handler line a page), the same rows.
      const paged: BoardRow[] = [];
      for (let page = 1; page <= board.meta.total_handlers; page += 1) {
        const value = { period_id: p.id, page, per_page: 1 };
        paged.push(...(await buildBoard(demo.ctx, { value, problems: [] })).data);
      }
      expect(paged, p.period_month).toEqual(expected);
      staleRows += expected.filter((r) => r.stale_year_to_date !== null).length;
      amendmentsInProgress += expected.filter((r) => r.amendment_in_progress).length;
    }
    // The fixture has what the narrow reads could get wrong: a stale month and an amendment in progress.
    expect(staleRows).toBeGreaterThan(0);
    expect(amendmentsInProgress).toBeGreaterThan(0);
  });

  /** The kept answers of a period: one row per stale form 1, none for the others. */
  async function staleRowsKept(periodId: string): Promise<number> {
    const rows = await portalDb(demo.ctx.db)
      .selectFrom('form1_stale_year_to_date')
      .select('form_id')
      .where('period_id', '=', periodId)
      .execute();
    return rows.length;
  }

  it('keeps the answers right when the stale month itself is amended, and across the season', async () => {
    expect(await staleOf101('2026-10')).not.toBeNull();
    // October amended (recomputed with the corrected September): no longer stale, kept or computed.
    await amendForm1('2026-10', { field_receipts_native: 5 });
    expect(await staleOf101('2026-10')).toBeNull();
    // August's amendment certified: September of the next season carries it as its previous month.
    const august = await form1IdOf(demo, demo.handlers['101'], await periodIdOf(demo, '2026-08'), 'draft');
    const certify = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_1/${august}`, {
      data: {
        type: 'node--apc_form_1',
        id: august,
        attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
      },
    });
    expect(certify.status, JSON.stringify(certify.body)).toBe(200);
    expect(await staleOf101('2026-09')).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'shipments_shelled_prev_month', corrected: 4_321 })]),
    );
    expect(await expectEveryMonthAsWholeRows()).toBeGreaterThan(0);
  });

  it('backfills the kept answers of every handler as certification keeps them (migration 016)', async () => {
    const kept = () =>
      portalDb(demo.ctx.db).selectFrom('form1_stale_year_to_date').selectAll().orderBy('form_id').execute();
    const before = await kept();
    expect(before.length).toBeGreaterThan(0);
    await portalDb(demo.ctx.db).deleteFrom('form1_stale_year_to_date').execute();
    await keepStaleForm1(portalDb(demo.ctx.db));
    expect(await kept()).toEqual(before);
  });
});

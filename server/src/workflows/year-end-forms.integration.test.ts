import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, councilCall } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * Form 5 against 986.175(a) and amendments against the domain brief, on the demo data: the 2025-2026 season is
 * over, its year-end forms are certified, and each handler's August 2026 Form 1 is certified.
 */
describeEachDatabase('year-end form and amendments', (target) => {
  let demo: DemoApp;
  let lastSeason: string;
  let form5Id: string;
  let august: { inshell: number; shelled: number };
  beforeAll(async () => {
    demo = await demoApp(target);
    const season = await demo.ctx.db
      .selectFrom('seasons')
      .select('id')
      .where('title', '=', '2025-2026')
      .executeTakeFirstOrThrow();
    lastSeason = season.id as string;
    const form = await demo.ctx.db
      .selectFrom('apc_form_5')
      .select('id')
      .where('handler_id', '=', demo.handlers['101'])
      .where('season_id', '=', lastSeason)
      .where('form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    form5Id = form.id as string;
    const aug = await demo.ctx.db
      .selectFrom('apc_form_1 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select(['f.inventory_inshell', 'f.inventory_shelled'])
      .where('f.handler_id', '=', demo.handlers['101'])
      .where('p.period_month', '=', '2026-08')
      .where('f.form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    august = { inshell: Number(aug.inventory_inshell), shelled: Number(aug.inventory_shelled) };
  });
  afterAll(async () => {
    await demo?.close();
  });

  const amend = (attributes: Record<string, unknown>) =>
    api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_5', {
      data: {
        type: 'node--apc_form_5',
        attributes,
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_5', id: form5Id } } },
      },
    });
  const patch = (id: string, attributes: Record<string, unknown>) =>
    api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_5/${id}`, {
      data: { type: 'node--apc_form_5', id, attributes },
    });

  it('works out form 5 on each basis, checks the August answer against the August Form 1 and keeps prices to four places', async () => {
    expect((await amend({})).status).toBe(422);
    const created = await amend({ field_amendment_reason: 'Recount of the cold-storage lots' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.attributes.field_amendment_reason).toBe('Recount of the cold-storage lots');
    expect(created.body.data.attributes.field_aug_form_1_inventory_inshell).toBe(august.inshell);
    expect(created.body.data.attributes.field_aug_form_1_inventory_shelled).toBe(august.shelled);

    // Inventory 1,250 lb more inshell than the August Form 1 showed, and 400 lb less shelled.
    const figures = {
      field_inshell_inventory_improved: august.inshell + 1_250,
      field_inshell_inventory_native: 0,
      field_inshell_inventory_substandard: 0,
      field_inshell_committed_domestic: 1_000,
      field_inshell_committed_export: 250,
      field_shelled_inventory: august.shelled - 400,
      field_shelled_committed_domestic: 500,
      field_shelled_committed_export: 0,
      field_shelled_halves: august.shelled - 400,
      field_shelled_pieces: 0,
      field_shelled_wip: 0,
      field_shellout_yield: '0.4800',
      field_avg_price_paid_improved: '2.3475',
    };
    const no = await patch(id, { ...figures, field_aug_form_1_amend_reqd: false });
    expect(no.status).toBe(422);
    expect(no.body.errors[0].source.pointer).toBe('/data/attributes/field_aug_form_1_amend_reqd');
    expect(no.body.errors[0].detail).toContain('difference +1250 lb');
    expect(no.body.errors[0].detail).toContain('difference -400 lb');

    const yes = await patch(id, { ...figures, field_aug_form_1_amend_reqd: true });
    expect(yes.status, JSON.stringify(yes.body)).toBe(200);
    const a = yes.body.data.attributes;
    expect(a.field_avg_price_paid_improved).toBe('2.3475');
    const inshell = august.inshell + 1_250;
    const shelled = august.shelled - 400;
    expect(a.field_inshell_uncommitted).toBe(inshell - 1_250); // inventory - (1,000 + 250)
    expect(a.field_shelled_uncommitted).toBe(shelled - 500);
    // Committed on an inshell basis: 1,250 inshell + 500 shelled / 0.48 = 1,250 + 1,041.67 -> 1,042 = 2,292.
    expect(a.field_committed_inshell_basis).toBe(2_292);
    // Total: inshell + shelled / 0.48 rounded half up once; uncommitted is the total less committed.
    const total = inshell + Math.round(shelled / 0.48);
    expect(a.field_total_inventory_inshell_basis).toBe(total);
    expect(a.field_uncommitted_inshell_basis).toBe(total - 2_292);

    // The question may be left unanswered on a draft, never at certification; the refusal names the field.
    const unanswered = await patch(id, { field_aug_form_1_amend_reqd: null });
    expect(unanswered.status, JSON.stringify(unanswered.body)).toBe(200);
    expect(unanswered.body.data.attributes.field_aug_form_1_amend_reqd).toBeNull();
    const refused = await patch(id, { field_certified: true, field_certification_name: 'Alice Moreno' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toContain(
      '/data/attributes/field_aug_form_1_amend_reqd',
    );

    // The same inventory as the August Form 1: "no" is an answer again.
    const same = await patch(id, {
      field_inshell_inventory_improved: august.inshell,
      field_inshell_committed_domestic: 0,
      field_inshell_committed_export: 0,
      field_shelled_inventory: august.shelled,
      field_shelled_halves: august.shelled,
      field_shelled_committed_domestic: 0,
      field_aug_form_1_amend_reqd: false,
      field_certified: true,
      field_certification_name: 'Alice Moreno',
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.data.attributes.field_form_status).toBe('certified');
    form5Id = id;
    // The reason is on the council's submissions board too.
    const board = await councilCall(
      demo.app,
      demo.tokens.staff,
      'GET',
      `/api/council/board?season_id=${lastSeason}&handler=101`,
    );
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    expect(board.body.data[0]).toMatchObject({
      status: 'amended',
      amendment_reason: 'Recount of the cold-storage lots',
    });
  });

  it('starts a new year-end form with the August question unanswered', async () => {
    const current = await demo.ctx.db
      .selectFrom('seasons')
      .select('id')
      .where('title', '=', '2026-2027')
      .executeTakeFirstOrThrow();
    const started = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_5', {
      data: {
        type: 'node--apc_form_5',
        attributes: {},
        relationships: {
          field_season: { data: { type: 'node--season', id: current.id } },
          field_handler: { data: { type: 'node--handler', id: demo.handlers['101'] } },
        },
      },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.data.attributes.field_aug_form_1_amend_reqd).toBeNull();
  });

  it('amends a closed season only after staff reopen it, each with an audit entry', async () => {
    const closed = await councilCall(demo.app, demo.tokens.staff, 'POST', `/api/council/seasons/${lastSeason}/close`);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.data.closed).toBe(true);
    const refused = await amend({ field_amendment_reason: 'Late correction' });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toContain('2025-2026 season is closed');
    // A monthly form of the closed season too (August 2026 belongs to 2025-2026).
    const augustForm = await demo.ctx.db
      .selectFrom('apc_form_1 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select('f.id')
      .where('f.handler_id', '=', demo.handlers['101'])
      .where('p.period_month', '=', '2026-08')
      .where('f.form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const monthly = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: { field_amendment_reason: 'Late correction' },
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: augustForm.id } } },
      },
    });
    expect(monthly.status).toBe(409);
    // Closing or reopening is staff's: a handler is refused.
    expect(
      (await councilCall(demo.app, demo.tokens.alice, 'POST', `/api/council/seasons/${lastSeason}/reopen`)).status,
    ).toBe(403);

    const reopened = await councilCall(
      demo.app,
      demo.tokens.staff,
      'POST',
      `/api/council/seasons/${lastSeason}/reopen`,
    );
    expect(reopened.body.data.closed).toBe(false);
    const allowed = await amend({ field_amendment_reason: 'Late correction' });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    // An amendment's reason can be reworded but never emptied.
    expect((await patch(allowed.body.data.id, { field_amendment_reason: '  ' })).status).toBe(422);

    const entries = await demo.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'actor_name'])
      .where('entity_type', '=', 'seasons')
      .where('entity_id', '=', lastSeason)
      .where('action', 'in', ['close', 'reopen'])
      .orderBy('occurred_at')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['close', 'reopen']);
  });

  it('dates a transfer agreement the 10th after its first transfer, moved past weekends and holidays', async () => {
    const season = await demo.ctx.db
      .selectFrom('seasons')
      .select('id')
      .where('title', '=', '2026-2027')
      .executeTakeFirstOrThrow();
    const file = (attributes: Record<string, unknown>) =>
      api(demo.app, demo.tokens.carol, 'POST', '/jsonapi/node/apc_form_4', {
        data: {
          type: 'node--apc_form_4',
          attributes: { field_responsible_handler: 'receiving', ...attributes },
          relationships: {
            field_receiving_handler: { data: { type: 'node--handler', id: demo.handlers['103'] } },
            field_season: { data: { type: 'node--season', id: season.id } },
          },
        },
      });
    // Without the month of the first transfer there is no due date, and the agreement cannot be certified.
    const incomplete = await file({ field_certified: true, field_certification_name: 'Carol Jensen' });
    expect(incomplete.status).toBe(422);
    expect(JSON.stringify(incomplete.body.errors)).toContain('field_first_transfer_month');
    // First transfer in September 2026: 10 October is a Saturday, Monday 12 October Columbus Day -> Tuesday 13 October.
    const filed = await file({ field_first_transfer_month: '2026-09' });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    expect(filed.body.data.attributes.field_due_date).toBe('2026-10-13');
    // Moving the month moves the date: November 2026 -> 10 December 2026, a Thursday.
    const id = filed.body.data.id;
    const moved = await api(demo.app, demo.tokens.carol, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: {
        type: 'node--apc_form_4',
        id,
        attributes: { field_first_transfer_month: '2026-11' },
      },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.attributes.field_due_date).toBe('2026-12-10');
    // The due date is the server's: a write of it is refused.
    const set = await api(demo.app, demo.tokens.carol, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: {
        type: 'node--apc_form_4',
        id,
        attributes: { field_due_date: '2027-01-01' },
      },
    });
    expect(set.status).toBe(422);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { ensureOAuthClients } from '../oauth/clients.js';
import { hashPassword } from '../users/passwords.js';
import { api, signIn } from '../test-support/api.js';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';

const now = '2026-01-01T00:00:00+00:00';
const node = (id: string, title: string) => ({ id, title, created: now, changed: now });

describeEachDatabase('engine smoke', (target) => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let alice: string;
  beforeAll(async () => {
    ctx = await createTestContext(target);
    await ensureOAuthClients(ctx.db);
    const db = ctx.db;
    await db
      .insertInto('handlers')
      .values([
        {
          ...node('h1', 'Riverbend'),
          handler_number: '101',
          show_in_handler_directory: ctx.dialect === 'sqlite' ? 1 : true,
        },
        {
          ...node('h2', 'Mesa'),
          handler_number: '102',
          show_in_handler_directory: ctx.dialect === 'sqlite' ? 1 : true,
        },
      ])
      .execute();
    const pass = await hashPassword('demo-pecans-2026');
    await db
      .insertInto('users')
      .values([
        { ...node('u1', ''), name: 'alice', handler_id: 'h1', pass_hash: pass, first_name: 'Alice' },
        { ...node('u2', ''), name: 'carol', handler_id: 'h2', pass_hash: pass, first_name: 'Carol' },
      ])
      .execute();
    await db
      .insertInto('seasons')
      .values({
        ...node('s1', '2025-2026'),
        season_start_date: '2025-09-01',
        season_end_date: '2026-08-31',
        reporting_due_date: '2026-09-10',
      })
      .execute();
    await db
      .insertInto('reporting_periods')
      .values({ ...node('p1', 'September 2025'), season_id: 's1', period_month: '2025-09', due_date: '2025-10-10' })
      .execute();
    await db
      .insertInto('reporting_forms_packages')
      .values([
        { ...node('k1', 'pk1'), handler_id: 'h1', period_id: 'p1' },
        { ...node('k2', 'pk2'), handler_id: 'h2', period_id: 'p1' },
      ])
      .execute();
    await db
      .insertInto('apc_form_1')
      .values([
        { ...node('f1', 'f1'), package_id: 'k1', handler_id: 'h1', period_id: 'p1', receipts_native: 5 },
        { ...node('f2', 'f2'), package_id: 'k2', handler_id: 'h2', period_id: 'p1', receipts_native: 7 },
      ])
      .execute();
    app = await buildApp(ctx, { logger: false });
    alice = await signIn(app, 'alice', 'demo-pecans-2026');
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it('lists only own packages with includes', async () => {
    const r = await api(
      app,
      alice,
      'GET',
      '/jsonapi/node/reporting_forms_package?include=field_form_1,field_reporting_period.field_season&sort=-field_reporting_period.field_due_date',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(['k1']);
    expect(r.body.data[0].relationships.field_form_1.data).toEqual([{ type: 'node--apc_form_1', id: 'f1' }]);
    expect(r.body.included.map((d: { id: string }) => d.id).sort()).toEqual(['f1', 'p1', 's1']);
  });

  it('filters through relationships and refuses the other handler', async () => {
    const r = await api(
      app,
      alice,
      'GET',
      '/jsonapi/node/apc_form_1?filter[a][condition][path]=field_handler.field_handler_number&filter[a][condition][value]=102',
    );
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([]);
    const item = await api(app, alice, 'GET', '/jsonapi/node/apc_form_1/f2');
    expect(item.status).toBe(403);
    const bad = await api(app, alice, 'GET', '/jsonapi/node/apc_form_1?filter[nope]=1');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe('filter[nope]');
  });
});

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailTransports } from '../mail/mailer.js';
import { startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';
import { api, councilCall, signIn } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, DEMO_PASSWORD, type DemoApp } from '../test-support/demo.js';
import { toCsv } from './http.js';

/**
 * The routes Fastify registered (method and path with its :parameters), read from its route tree
 * (`printRoutes({ commonPrefix: false })`: a line per node, indented four characters a level, with its methods);
 * the HEAD route Fastify adds to each GET is left out.
 */
function registeredRoutes(app: FastifyInstance): Array<{ method: string; url: string }> {
  const paths: string[] = [];
  const routes: Array<{ method: string; url: string }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node) continue;
    const depth = node[1].length / 4;
    paths[depth] = (paths[depth - 1] ?? '') + node[2];
    for (const method of node[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push({ method, url: paths[depth] });
  }
  return routes;
}

const pointers = (body: { errors: Array<{ source?: { pointer?: string; parameter?: string } }> }) =>
  body.errors.map((e) => e.source?.pointer ?? e.source?.parameter).sort();

describe('toCsv', () => {
  it('quotes what needs quoting and defuses formulas, numbers stay numbers', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x, y', 'say "hi"'],
          ['line\nbreak', null],
          ['=1+1', '-12.50'],
          [' pad', 7],
        ],
      ),
    ).toBe('a,b\r\n"x, y","say ""hi"""\r\n"line\nbreak",\r\n\'=1+1,-12.50\r\n" pad",7\r\n');
  });
});

describeEachDatabase('council console', (target) => {
  let demo: DemoApp;
  let smtp: TestSmtpServer;
  let staff: string;
  let alice: string;
  let periodNov: string;
  let periodOct: string;
  let seasonId: string;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    demo = await demoApp(target);
    demo.ctx.config.smtpUrl = smtp.url;
    ({ staff, alice } = demo.tokens);
    const periods = await demo.ctx.db
      .selectFrom('reporting_periods')
      .select(['id', 'period_month', 'season_id'])
      .execute();
    periodNov = periods.find((p) => p.period_month === '2026-11')!.id;
    periodOct = periods.find((p) => p.period_month === '2026-10')!.id;
    seasonId = periods.find((p) => p.period_month === '2026-11')!.season_id;
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
    closeMailTransports();
    await smtp?.close();
  });

  it('answers 401 without a token and 403 to a handler user on every council endpoint', async () => {
    // Every route the app registered under the prefix, so a new endpoint is covered without being listed here.
    const endpoints = registeredRoutes(demo.app).filter((r) => r.url.startsWith('/api/council/'));
    expect(endpoints.length).toBeGreaterThan(30);
    expect(endpoints).toContainEqual({ method: 'POST', url: '/api/council/users' });
    // A valid body where a route takes one: refused all the same, and nothing is made.
    const bodies: Record<string, unknown> = {
      'POST /api/council/users': {
        username: 'eve',
        first_name: 'Eve',
        email: 'eve@example.com',
        role: 'staff',
        password: 'a-long-password-1',
      },
      'PATCH /api/council/users/:id': { status: 'blocked' },
      'POST /api/council/seasons': { start_year: 2030 },
      'PATCH /api/council/periods/:id': { due_date: '2026-12-11' },
    };
    for (const { method, url } of endpoints) {
      const address = url.replace(/:[a-z_]+/g, 'x');
      const body = bodies[`${method} ${url}`] ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
      expect((await councilCall(demo.app, null, method, address, body)).status, `${method} ${url}`).toBe(401);
      const r = await councilCall(demo.app, alice, method, address, body);
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.errors[0].status).toBe('403');
    }
    expect(
      await demo.ctx.db.selectFrom('users').select('id').where('name', '=', 'eve').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses bad input with 422, one error per field or parameter, never a 500', async () => {
    const cases: Array<[string, string, unknown, string[]]> = [
      [
        'POST',
        '/api/council/users',
        { username: 'x', email: 'nope', role: 'boss', extra: 1 },
        ['/email', '/extra', '/first_name', '/role', '/username'],
      ],
      [
        'POST',
        '/api/council/users',
        {
          username: 'alice',
          first_name: 'A',
          email: 'alice@example.com',
          role: 'handler',
          handler_number: '999',
          password: 'short',
        },
        ['/email', '/handler_number', '/password', '/username'],
      ],
      [
        'POST',
        '/api/council/users',
        { username: 'newbie', first_name: 'N', email: 'n@example.com', role: 'handler' },
        ['/handler_number'],
      ],
      [
        'PATCH',
        '/api/council/users/USER',
        { status: 'gone', email: 'x', first_name: 5 },
        ['/email', '/first_name', '/status'],
      ],
      ['POST', '/api/council/seasons', { start_year: '2027' }, ['/start_year']],
      ['POST', '/api/council/seasons', {}, ['/start_year']],
      ['PATCH', `/api/council/periods/${periodNov}`, { due_date: '2026-02-30' }, ['/due_date']],
      ['GET', '/api/council/board', undefined, ['period_id']],
      ['GET', `/api/council/board?period_id=${periodNov}&status=late&handler=999`, undefined, ['handler', 'status']],
      ['GET', '/api/council/board?period_id=nope&bogus=1', undefined, ['bogus']], // unknown parameters first
      ['GET', '/api/council/invoices?status=void', undefined, ['status']],
      ['GET', '/api/council/invoices/totals', undefined, ['season_id']],
      ['GET', '/api/council/calendar?season_id=nope', undefined, ['season_id']],
      ['GET', '/api/council/audit?from=yesterday&page=0', undefined, ['from', 'page']],
      ['GET', '/api/council/users?status=x&page=-1', undefined, ['page', 'status']],
      ['GET', '/api/council/reminders?kind=x', undefined, ['kind']],
    ];
    const bob = await demo.ctx.db.selectFrom('users').select('id').where('name', '=', 'bob').executeTakeFirstOrThrow();
    for (const [method, url, body, expected] of cases) {
      const r = await councilCall(demo.app, staff, method, url.replace('USER', bob.id), body);
      expect(r.status, `${method} ${url}: ${r.text}`).toBe(422);
      expect(pointers(r.body), url).toEqual(expected);
      for (const e of r.body.errors) expect(e.detail).toBeTruthy();
    }
    expect((await councilCall(demo.app, staff, 'POST', '/api/council/users', [1])).status).toBe(400);
    expect(
      (await councilCall(demo.app, staff, 'PATCH', '/api/council/users/no-such-user', { first_name: 'X' })).status,
    ).toBe(404);
    expect(
      (await councilCall(demo.app, staff, 'PATCH', '/api/council/periods/no-such', { due_date: '2026-12-11' })).status,
    ).toBe(404);
    expect((await councilCall(demo.app, staff, 'GET', '/api/council/filings/apc_form_9/x/versions')).status).toBe(404);
    expect((await councilCall(demo.app, staff, 'GET', '/api/council/filings/apc_form_1/nope/versions')).status).toBe(
      404,
    );
  });

  it('lists, creates and edits users; blocking ends their tokens at once', async () => {
    const list = await councilCall(demo.app, staff, 'GET', '/api/council/users?handler=101&status=active');
    expect(list.status).toBe(200);
    expect(list.body.data.map((u: { username: string }) => u.username)).toEqual(['alice', 'bob']);
    expect(list.body.data[0]).toMatchObject({ handler_number: '101', email: 'alice@example.com', role: 'handler' });
    expect(
      (await councilCall(demo.app, staff, 'GET', '/api/council/users?q=JENS')).body.data.map(
        (u: { username: string }) => u.username,
      ),
    ).toEqual(['carol']);
    expect(JSON.stringify(list.body)).not.toContain('pass_hash');

    const created = await councilCall(demo.app, staff, 'POST', '/api/council/users', {
      username: 'erin',
      first_name: 'Erin',
      last_name: 'Diaz',
      email: 'erin@example.com',
      role: 'handler',
      handler_number: '102',
      password: 'erin-pecans-2026',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ username: 'erin', handler_number: '102', status: 'active' });
    const erin = await signIn(demo.app, 'erin', 'erin-pecans-2026');
    const own = await api(demo.app, erin, 'GET', `/jsonapi/node/handler/${demo.handlers['102']}`);
    expect(own.status).toBe(200);
    expect(
      (
        await councilCall(demo.app, staff, 'POST', '/api/council/users', {
          username: 'Erin',
          first_name: 'E',
          email: 'ERIN@example.com',
          role: 'staff',
        })
      ).status,
    ).toBe(422);

    // Without a password: a reset link goes out so the user chooses one.
    const frank = await councilCall(demo.app, staff, 'POST', '/api/council/users', {
      username: 'frank',
      first_name: 'Frank',
      email: 'frank@example.com',
      role: 'staff',
    });
    expect(frank.status, frank.text).toBe(201);
    expect(frank.body.meta.password_reset_sent).toBe(true);
    expect((await smtp.waitFor((m) => m.to.includes('frank@example.com'))).text).toContain('/resetpassword?token=');

    // Reassign to another handler and rename.
    const moved = await councilCall(demo.app, staff, 'PATCH', `/api/council/users/${created.body.data.id}`, {
      handler_number: '101',
      job_title: 'Clerk',
      phone: null,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data).toMatchObject({ handler_number: '101', job_title: 'Clerk', phone: null });
    // Moving ends the old sessions: the old token answered for handler 102.
    expect((await api(demo.app, erin, 'GET', '/oauth/debug?_format=json')).status).toBe(401);

    // Block bob: his token answers 401 on the very next request.
    const bobToken = demo.tokens.bob;
    expect((await api(demo.app, bobToken, 'GET', `/jsonapi/node/handler/${demo.handlers['101']}`)).status).toBe(200);
    const bob = (await councilCall(demo.app, staff, 'GET', '/api/council/users?q=bob')).body.data[0];
    const blocked = await councilCall(demo.app, staff, 'PATCH', `/api/council/users/${bob.id}`, { status: 'blocked' });
    expect(blocked.status, blocked.text).toBe(200);
    expect(blocked.body.data.status).toBe('blocked');
    expect((await api(demo.app, bobToken, 'GET', `/jsonapi/node/handler/${demo.handlers['101']}`)).status).toBe(401);
    const family = await demo.ctx.db
      .selectFrom('oauth_token_families')
      .select('revoked_at')
      .where('user_id', '=', bob.id)
      .execute();
    expect(family.every((f) => f.revoked_at !== null)).toBe(true);
    const refused = await demo.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: 'portal-web',
        username: 'bob',
        password: DEMO_PASSWORD,
      }).toString(),
    });
    expect(refused.statusCode).toBe(400);
    // Staff cannot block themselves.
    const me = (await councilCall(demo.app, staff, 'GET', '/api/council/users?q=staff&role=staff')).body.data[0];
    expect(
      (await councilCall(demo.app, staff, 'PATCH', `/api/council/users/${me.id}`, { status: 'blocked' })).status,
    ).toBe(422);
  });

  it('sends a password-reset link with the same e-mail as the forgot-password flow', async () => {
    const carol = (await councilCall(demo.app, staff, 'GET', '/api/council/users?q=carol')).body.data[0];
    const r = await councilCall(demo.app, staff, 'POST', `/api/council/users/${carol.id}/password-reset`);
    expect(r.status, r.text).toBe(202);
    expect(r.body).toMatchObject({ email: 'carol@example.com', mail_sent: true });
    const mail = await smtp.waitFor((m) => m.to.includes('carol@example.com'));
    const publicFlow = await councilCall(demo.app, null, 'POST', '/api/password-reset', { email: 'alice@example.com' });
    expect(publicFlow.status).toBe(202);
    const aliceMail = await smtp.waitFor((m) => m.to.includes('alice@example.com'));
    expect(mail.subject).toBe(aliceMail.subject);
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const confirm = await councilCall(demo.app, null, 'POST', '/api/password-reset/confirm', {
      token,
      password: 'carol-new-password-1',
    });
    expect(confirm.status).toBe(204);
    await signIn(demo.app, 'carol', 'carol-new-password-1');
  });

  it('deactivates a handler: opening a month then makes it no package', async () => {
    const h103 = demo.handlers['103'];
    const bad = await api(demo.app, staff, 'PATCH', `/jsonapi/node/handler/${h103}`, {
      data: { type: 'node--handler', id: h103, attributes: { field_handler_status: 'gone' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/field_handler_status');
    const byHandler = await api(demo.app, demo.tokens.dave, 'PATCH', `/jsonapi/node/handler/${h103}`, {
      data: { type: 'node--handler', id: h103, attributes: { field_handler_status: 'inactive' } },
    });
    expect(byHandler.status).toBe(403);
    const off = await api(demo.app, staff, 'PATCH', `/jsonapi/node/handler/${h103}`, {
      data: { type: 'node--handler', id: h103, attributes: { field_handler_status: 'inactive' } },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data.attributes.field_handler_status).toBe('inactive');
    const opened = await councilCall(demo.app, staff, 'POST', '/api/council/periods', { period_month: '2026-12' });
    expect(opened.status).toBe(201);
    expect(opened.body.packages_created).toBe(2);
    const packages = await demo.ctx.db
      .selectFrom('reporting_forms_packages')
      .select('handler_id')
      .where('period_id', '=', opened.body.period_id)
      .execute();
    expect(packages.map((p) => p.handler_id).sort()).toEqual([demo.handlers['101'], demo.handlers['102']].sort());
    const board = await councilCall(demo.app, staff, 'GET', `/api/council/board?period_id=${opened.body.period_id}`);
    expect(board.body.data.map((r: { handler_number: string }) => r.handler_number)).not.toContain('103');
    expect(board.body.counts.not_started).toBe(6);
    // Back on for the tests that follow.
    const on = await api(demo.app, staff, 'PATCH', `/jsonapi/node/handler/${h103}`, {
      data: { type: 'node--handler', id: h103, attributes: { field_handler_status: 'active' } },
    });
    expect(on.status).toBe(200);
  });

  it('creates seasons, chooses the current one, moves due dates, and shows the calendar', async () => {
    const made = await councilCall(demo.app, staff, 'POST', '/api/council/seasons', { start_year: 2027 });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({
      title: '2027-2028',
      start_date: '2027-09-01',
      end_date: '2028-08-31',
      current: false,
    });
    expect((await councilCall(demo.app, staff, 'POST', '/api/council/seasons', { start_year: 2027 })).status).toBe(200);
    const current = await councilCall(demo.app, staff, 'POST', `/api/council/seasons/${made.body.data.id}/current`);
    expect(current.body.data.current).toBe(true);
    const seasons = (await councilCall(demo.app, staff, 'GET', '/api/council/seasons')).body.data;
    expect(seasons.filter((s: { current: boolean }) => s.current).map((s: { id: string }) => s.id)).toEqual([
      made.body.data.id,
    ]);
    expect((await councilCall(demo.app, staff, 'POST', `/api/council/seasons/${seasonId}/current`)).status).toBe(200);
    expect((await councilCall(demo.app, staff, 'POST', '/api/council/seasons/no-such/current')).status).toBe(404);

    const moved = await councilCall(demo.app, staff, 'PATCH', `/api/council/periods/${periodNov}`, {
      due_date: '2026-12-11',
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.due_date).toBe('2026-12-11');
    const yearEnd = await councilCall(demo.app, staff, 'PATCH', `/api/council/seasons/${seasonId}`, {
      reporting_due_date: '2027-09-13',
    });
    expect(yearEnd.body.data.reporting_due_date).toBe('2027-09-13');

    const calendar = await councilCall(demo.app, staff, 'GET', `/api/council/calendar?season_id=${seasonId}`);
    expect(calendar.status).toBe(200);
    expect(calendar.body.year_end_due_date).toBe('2027-09-13');
    expect(calendar.body.periods.map((p: { period_month: string }) => p.period_month)).toEqual([
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
    ]);
    expect(calendar.body.periods.find((p: { id: string }) => p.id === periodNov)).toMatchObject({
      due_date: '2026-12-11',
      packages: 3,
    });
    expect((await councilCall(demo.app, staff, 'GET', '/api/council/calendar')).body.season.id).toBe(seasonId);
  });

  it('shows the submissions board with statuses, filters and CSV', async () => {
    const oct = await councilCall(demo.app, staff, 'GET', `/api/council/board?period_id=${periodOct}`);
    expect(oct.status, oct.text).toBe(200);
    expect(oct.body.data).toHaveLength(9);
    for (const r of oct.body.data) {
      expect(['certified', 'amended']).toContain(r.status);
      expect(r.certified_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(r.current_version_id).toBeTruthy();
    }
    const nov = await councilCall(demo.app, staff, 'GET', `/api/council/board?period_id=${periodNov}&handler=101`);
    expect(nov.body.data.map((r: { form: string }) => r.form)).toEqual(['apc_form_1', 'apc_form_2', 'apc_form_3']);
    expect(nov.body.data.every((r: { status: string }) => r.status === 'draft' || r.status === 'not_started')).toBe(
      true,
    );

    // Past its due date, what is not certified is overdue (the clock says 2026-11-22).
    await councilCall(demo.app, staff, 'PATCH', `/api/council/periods/${periodNov}`, { due_date: '2026-11-20' });
    const overdue = await councilCall(
      demo.app,
      staff,
      'GET',
      `/api/council/board?period_id=${periodNov}&status=overdue`,
    );
    expect(overdue.body.data.length).toBeGreaterThanOrEqual(6);
    expect(overdue.body.counts.overdue).toBe(overdue.body.data.length);
    await councilCall(demo.app, staff, 'PATCH', `/api/council/periods/${periodNov}`, { due_date: '2026-12-10' });

    const amended = await councilCall(demo.app, staff, 'GET', `/api/council/board?season_id=${seasonId}`);
    expect(amended.body.forms).toEqual(['apc_form_5']);

    const h102 = demo.handlers['102'];
    const renamed = await api(demo.app, staff, 'PATCH', `/jsonapi/node/handler/${h102}`, {
      data: { type: 'node--handler', id: h102, attributes: { title: 'Mesa "Valley", Pecans' } },
    });
    expect(renamed.status).toBe(200);
    const csv = await councilCall(demo.app, staff, 'GET', `/api/council/board.csv?period_id=${periodOct}&handler=102`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(
      'handler_number,handler_name,form,status,due_date,current_version_id,certified_version_id,certified_at,amendments,amendment_in_progress,amendment_reason',
    );
    expect(lines[1]).toMatch(/^102,"Mesa ""Valley"", Pecans",apc_form_1,(certified|amended),/);
    expect(lines).toHaveLength(5); // header, 3 rows, the final line end
  });

  it('shows every version of a filing side by side with what changed', async () => {
    const amendment = await demo.ctx.db
      .selectFrom('apc_form_1')
      .select(['id'])
      .where('amendment_number', '>', 0)
      .where('form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const r = await councilCall(demo.app, staff, 'GET', `/api/council/filings/apc_form_1/${amendment.id}/versions`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.versions.length).toBeGreaterThanOrEqual(2);
    const [first, second] = r.body.versions;
    expect(first.form_status).toBe('superseded');
    expect(first.changed_fields).toEqual([]);
    expect(second.amendment_number).toBe(1);
    const expected = Object.keys(second.attributes).filter(
      (k) => JSON.stringify(second.attributes[k]) !== JSON.stringify(first.attributes[k]),
    );
    expect(second.changed_fields).toEqual(expected);
    expect(second.changed_fields.length).toBeGreaterThan(0);
    expect(typeof second.attributes.field_assessment_due).toBe('string');
  });

  it('lists invoices with filters and CSV, and totals a season in cents', async () => {
    const all = await councilCall(demo.app, staff, 'GET', '/api/council/invoices');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    const open = await councilCall(
      demo.app,
      staff,
      'GET',
      `/api/council/invoices?status=open&handler=101&season_id=${seasonId}`,
    );
    for (const i of open.body.data)
      expect(i).toMatchObject({ status: 'open', handler_number: '101', season_id: seasonId });
    const cents = (s: string) => Math.round(Number(s) * 100);
    const inSeason = all.body.data.filter((i: { season_id: string }) => i.season_id === seasonId);
    const totals = await councilCall(demo.app, staff, 'GET', `/api/council/invoices/totals?season_id=${seasonId}`);
    expect(totals.status, totals.text).toBe(200);
    for (const k of ['billed', 'paid', 'open']) expect(totals.body[k]).toMatch(/^-?\d+\.\d{2}$/);
    expect(cents(totals.body.billed)).toBe(
      inSeason.reduce((n: number, i: { amount_due: string }) => n + cents(i.amount_due), 0),
    );
    expect(cents(totals.body.paid) + cents(totals.body.open)).toBe(cents(totals.body.billed));
    expect(totals.body.invoices).toBe(inSeason.length);
    const csv = await councilCall(demo.app, staff, 'GET', `/api/council/invoices.csv?period_id=${periodOct}`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'invoice_number,handler_number,handler_name,period_month,amount_due,due_date,status,paid_date,paid_reference,id',
    );
    expect(lines.length - 1).toBe(all.body.data.filter((i: { period_id: string }) => i.period_id === periodOct).length);
  });

  it('records every write in an audit log nobody can change', async () => {
    const form = await demo.ctx.db
      .selectFrom('apc_form_1')
      .select('id')
      .where('period_id', '=', periodNov)
      .where('handler_id', '=', demo.handlers['101'])
      .where('form_status', '=', 'draft')
      .executeTakeFirstOrThrow();
    const saved = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${form.id}`, {
      data: {
        type: 'node--apc_form_1',
        id: form.id,
        attributes: {
          field_receipts_by_variety: [{ variety: 'Desirable', pounds: 1000 }],
          field_receipts_native: 10,
          field_inventory_inshell: 5,
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const certified = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${form.id}`, {
      data: {
        type: 'node--apc_form_1',
        id: form.id,
        attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
      },
    });
    expect(certified.status, JSON.stringify(certified.body)).toBe(200);

    const log = await councilCall(
      demo.app,
      staff,
      'GET',
      `/api/council/audit?type=node--apc_form_1&user=alice&id=${form.id}`,
    );
    expect(log.status, log.text).toBe(200);
    const certify = log.body.data.find((e: { action: string }) => e.action === 'certify');
    expect(certify).toMatchObject({
      type: 'apc_form_1',
      resource_type: 'node--apc_form_1',
      entity_id: form.id,
      handler_id: demo.handlers['101'],
    });
    expect(certify.actor).toMatchObject({ name: 'alice', role: 'handler' });
    expect(certify.before.form_status).toBe('draft');
    expect(certify.after.form_status).toBe('certified');
    expect(certify.after.certification_name).toBe('Alice Moreno');
    const update = log.body.data.find(
      (e: { action: string; after: { receipts_native?: number } }) =>
        e.action === 'update' && Number(e.after.receipts_native) === 10,
    );
    expect(update).toBeTruthy();
    // An entry about a user names the user: the reader sees a username, not an id.
    const aboutUsers = await councilCall(demo.app, staff, 'GET', '/api/council/audit?type=users');
    expect(aboutUsers.status, aboutUsers.text).toBe(200);
    expect(aboutUsers.body.data.length).toBeGreaterThan(0);
    const names = aboutUsers.body.data.map((e: { entity_name: string | null }) => e.entity_name);
    expect(names.every((n: unknown) => typeof n === 'string' && n !== '')).toBe(true);
    expect(names).toContain('alice');
    // The invoice it issued and the PDF it rendered are logged too, without the file's bytes.
    const byHandler = await councilCall(
      demo.app,
      staff,
      'GET',
      `/api/council/audit?handler=101&user=alice&from=2026-11-22&to=2026-11-22`,
    );
    const types = new Set(byHandler.body.data.map((e: { type: string }) => e.type));
    expect(types).toContain('invoices');
    const files = await councilCall(
      demo.app,
      staff,
      'GET',
      '/api/council/audit?type=file--file&user=alice&from=2026-11-22T00:00:00Z',
    );
    expect(files.body.data.length).toBeGreaterThan(0);
    expect(files.body.data[0].after).toMatchObject({ filemime: 'application/pdf' });
    expect(JSON.stringify(files.body)).not.toContain('"content"');
    expect(JSON.stringify(byHandler.body)).not.toContain('"content"');
    // Staff actions: a user created by staff, without its password hash.
    const users = await councilCall(demo.app, staff, 'GET', '/api/council/audit?type=user--user&user=staff');
    expect(users.body.data.length).toBeGreaterThan(0);
    expect(JSON.stringify(users.body)).not.toContain('pass_hash');
    expect(users.body.data.some((e: { action: string }) => e.action === 'password_reset_sent')).toBe(true);
    expect(users.body.meta).toMatchObject({ page: 1, per_page: 50 });

    // Nobody can change or delete an entry, not even with SQL.
    const entry = certify.id as string;
    await expect(sql`update audit_log set action = 'nothing' where id = ${entry}`.execute(demo.ctx.db)).rejects.toThrow(
      /audit_log/,
    );
    await expect(sql`delete from audit_log where id = ${entry}`.execute(demo.ctx.db)).rejects.toThrow(/audit_log/);
    const still = await demo.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('id', '=', entry)
      .executeTakeFirstOrThrow();
    expect(still.action).toBe('certify');
    if (target.dialect === 'postgres')
      await expect(sql`truncate audit_log`.execute(demo.ctx.db)).rejects.toThrow(/audit_log/);
    // And there is no endpoint for it.
    for (const method of ['PATCH', 'DELETE', 'PUT'] as const) {
      expect((await councilCall(demo.app, staff, method, `/api/council/audit/${entry}`)).status).toBe(404);
    }
  });
});

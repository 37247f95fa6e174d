import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { ensureDocumentRows } from '../test-support/jsonapi-fixtures.js';
import { MAX_SUBREQUESTS, type SubresponseEntry } from './routes.js';

type Item = { requestId: string; uri: string; action: string; headers?: Record<string, string>; waitFor?: string[] };
const view = (requestId: string, uri: string): Item => ({ requestId, uri, action: 'view' });
const q = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

describeEachDatabase('POST /subrequests (batched reads)', (target) => {
  let d: DemoApp;
  let h101: string;
  let h102: string;
  let h103: string;

  const batch = async (token: string | null, blueprint: unknown) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const r = await d.app.inject({
      method: 'POST',
      url: '/subrequests?_format=json',
      headers,
      payload: JSON.stringify(blueprint),
    });
    return {
      status: r.statusCode,
      type: String(r.headers['content-type'] ?? ''),
      json: () => r.json() as Record<string, SubresponseEntry>,
    };
  };
  const single = (token: string, uri: string) =>
    d.app.inject({
      method: 'GET',
      url: uri,
      headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
    });

  /** Every subrequest's status and body equal those of the same call made alone by the same user. */
  const expectSameAsSingleCalls = async (token: string, items: Item[]) => {
    const r = await batch(token, items);
    expect(r.status).toBe(207);
    expect(r.type).toMatch(/^application\/json/);
    const answer = r.json();
    expect(Object.keys(answer).sort()).toEqual(items.map((i) => i.requestId).sort());
    for (const item of items) {
      const alone = await single(token, item.uri);
      const entry = answer[item.requestId];
      expect(entry.headers.status, item.uri).toEqual([String(alone.statusCode)]);
      expect(entry.headers['Content-Id']).toEqual([`<${item.requestId}>`]);
      expect(entry.headers['content-type'][0]).toBe(String(alone.headers['content-type']));
      expect(JSON.parse(entry.body), item.uri).toEqual(JSON.parse(alone.body));
    }
    return answer;
  };

  beforeAll(async () => {
    d = await demoApp(target);
    await ensureDocumentRows(d.ctx);
    ({ '101': h101, '102': h102, '103': h103 } = d.handlers);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('answers 207 with the same bodies as the separate calls (the sign-in reads)', async () => {
    const answer = await expectSameAsSingleCalls(d.tokens.alice, [
      view(
        'user',
        `/jsonapi/user/user?${q({ 'filter[name]': 'alice', include: 'field_user_handler_company,field_user_handler_company.field_handler_analytics,field_user_handler_company.field_handler_packet_confirms' })}`,
      ),
      view('seasons', `/jsonapi/node/season?${q({ sort: '-field_season_start_date' })}`),
      view(
        'packages',
        `/jsonapi/node/reporting_forms_package?${q({ 'filter[field_handler.id]': h101, sort: '-field_reporting_period.field_due_date', include: 'field_reporting_period,field_form_1,field_form_1.field_form_1_pdf', 'page[limit]': '500' })}`,
      ),
      view(
        'invoices',
        `/jsonapi/node/invoice?${q({ 'filter[field_handler.id]': h101, include: 'field_reporting_period,field_invoice_pdf,field_form_1.field_form_1_pdf', 'page[limit]': '200', sort: '-field_due_date' })}`,
      ),
      view(
        'report',
        `/jsonapi/node/monthly_position_report?${q({ 'filter[field_publish_to_portal]': '1', sort: '-field_reporting_period.field_due_date', include: 'field_reporting_period,field_position_report_pdf', 'page[limit]': '1' })}`,
      ),
    ]);
    // The reads found something: the comparison above is not between two empty answers.
    expect(JSON.parse(answer.packages.body).data.length).toBeGreaterThan(0);
    expect(JSON.parse(answer.user.body).included.some((r: { id: string }) => r.id === h101)).toBe(true);
  });

  describe('waitFor and replacement tokens (the sign-in reads in one batch)', () => {
    const handlerToken = '{{user.body@$.data[0].relationships.field_user_handler_company.data.id}}';
    const userRead = (name: string) =>
      view('user', `/jsonapi/user/user?${q({ 'filter[name]': name, include: 'field_user_handler_company' })}`);
    // Tokens go in the uri as they are (Drupal's syntax), not percent-encoded.
    const invoicesOf = (handler: string) =>
      `/jsonapi/node/invoice?${q({ 'page[limit]': '200' })}&${encodeURIComponent('filter[field_handler.id]')}=${handler}`;
    const dependent = (requestId: string, uri: string): Item => ({ ...view(requestId, uri), waitFor: ['user'] });

    it('puts a value of the answer it waits for in the uri: the same answer as the call made with that value', async () => {
      const r = await batch(d.tokens.alice, [
        dependent('invoices', invoicesOf(handlerToken)),
        dependent(
          'handler',
          `/jsonapi/node/handler/{{user.body@$['data'][0].relationships.field_user_handler_company.data.id}}`,
        ),
        userRead('alice'),
      ]);
      expect(r.status).toBe(207);
      const answer = r.json();
      // Answered in the order the items can run: each after those it waits for.
      expect(Object.keys(answer)).toEqual(['user', 'invoices', 'handler']);
      const alone = await single(d.tokens.alice, invoicesOf(h101));
      expect(answer.invoices.headers.status).toEqual(['200']);
      expect(JSON.parse(answer.invoices.body)).toEqual(JSON.parse(alone.body));
      expect(JSON.parse(answer.invoices.body).data.length).toBeGreaterThan(0);
      expect(JSON.parse(answer.handler.body).data.id).toBe(h101);
    });

    it("gives nothing the single calls would not: a value read from someone else's answer reads with the caller's own rights", async () => {
      // Alice reads carol's user (a directory entry) and then invoices by carol's handler id: an empty list, as alone.
      const r = await batch(d.tokens.alice, [userRead('carol'), dependent('invoices', invoicesOf(handlerToken))]);
      const answer = r.json();
      const carolsHandler = JSON.parse(answer.user.body).data[0]?.relationships?.field_user_handler_company?.data?.id;
      if (carolsHandler) {
        expect(carolsHandler).toBe(h102);
        expect(JSON.parse(answer.invoices.body).data).toEqual([]);
      } else {
        expect(answer.invoices.headers.status).toEqual(['424']);
      }
    });

    it('answers 424 for an item whose value is not there, and still runs the others', async () => {
      const r = await batch(d.tokens.alice, [
        userRead('nobody-of-that-name'),
        dependent('invoices', invoicesOf(handlerToken)),
        view('seasons', '/jsonapi/node/season'),
      ]);
      expect(r.status).toBe(207);
      const answer = r.json();
      expect(answer.user.headers.status).toEqual(['200']);
      expect(answer.invoices.headers.status).toEqual(['424']);
      const error = JSON.parse(answer.invoices.body).errors[0];
      expect(error).toMatchObject({ status: '424', title: 'Failed Dependency' });
      expect(error.detail).toContain('finds no string or number in the answer of "user"');
      expect(answer.seasons.headers.status).toEqual(['200']);
    });

    it('answers 424 for an item whose source failed, naming its status', async () => {
      const r = await batch(d.tokens.alice, [
        view('user', '/jsonapi/node/no_such_type'),
        dependent('invoices', invoicesOf(handlerToken)),
      ]);
      const answer = r.json();
      expect(answer.user.headers.status[0]).toMatch(/^4/);
      expect(JSON.parse(answer.invoices.body).errors[0].detail).toContain(
        `"user", which it waits for, answered ${answer.user.headers.status[0]}`,
      );
    });
  });

  it('is 401 without a token, and runs nothing', async () => {
    const r = await batch(null, [view('s', '/jsonapi/node/season')]);
    expect(r.status).toBe(401);
  });

  it("keeps handler 101's user out of handler 102's data exactly as the single calls do", async () => {
    const invoice102 = await d.ctx.db
      .selectFrom('invoices')
      .select('id')
      .where('handler_id', '=', h102)
      .executeTakeFirstOrThrow();
    const answer = await expectSameAsSingleCalls(d.tokens.alice, [
      view('directory-card', `/jsonapi/node/handler/${h102}?include=field_handler_packet_confirms`),
      view('hidden-handler', `/jsonapi/node/handler/${h103}`),
      view('their-invoice', `/jsonapi/node/invoice/${invoice102.id}`),
      view('their-invoices', `/jsonapi/node/invoice?${q({ 'filter[field_handler.id]': h102 })}`),
      view('their-packages', `/jsonapi/node/reporting_forms_package?${q({ 'filter[field_handler.id]': h102 })}`),
      view('their-user', `/jsonapi/user/user?${q({ 'filter[name]': 'carol' })}`),
    ]);
    // A handler outside the directory is read by name and number only (a transfer's receiver), never its contacts.
    expect(answer['hidden-handler'].headers.status[0]).toBe('200');
    const hidden = JSON.parse(answer['hidden-handler'].body).data.attributes;
    for (const contact of ['field_address', 'field_phone', 'field_email', 'field_website'])
      expect(hidden).not.toHaveProperty(contact);
    // Refused (403 or 404, whichever the single call gives: compared above), never read.
    expect(['403', '404']).toContain(answer['their-invoice'].headers.status[0]);
    expect(JSON.parse(answer['their-invoices'].body).data).toEqual([]);
    expect(JSON.parse(answer['their-packages'].body).data).toEqual([]);
    // Handler 102's directory card, without its packet confirmations (those are its own).
    expect(JSON.parse(answer['directory-card'].body).included ?? []).toEqual([]);
  });

  it("cannot borrow someone else's token through a subrequest's headers", async () => {
    const uri = `/jsonapi/node/invoice?${q({ 'filter[field_handler.id]': h102 })}`;
    const r = await batch(d.tokens.alice, [
      {
        ...view('x', uri),
        headers: { Authorization: `Bearer ${d.tokens.carol}`, authorization: `Bearer ${d.tokens.carol}` },
      },
    ]);
    expect(r.status).toBe(207);
    expect(JSON.parse(r.json().x.body).data).toEqual([]);
    // Carol herself does see them: the empty list above is alice's view, not an empty table.
    expect(JSON.parse((await single(d.tokens.carol, uri)).body).data.length).toBeGreaterThan(0);
  });

  describe('refuses a bad blueprint with 400, naming what is wrong', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['not an array', { requestId: 'a', uri: '/jsonapi/node/season', action: 'view' }, /JSON array/],
      ['empty', [], /empty/],
      ['an item that is not an object', ['/jsonapi/node/season'], /not an object/],
      [
        'waitFor naming no item',
        [{ ...view('a', '/jsonapi/node/season'), waitFor: ['b'] }],
        /"waitFor" names "b", which is not in the blueprint/,
      ],
      [
        'waitFor that is not an array',
        [{ ...view('a', '/jsonapi/node/season'), waitFor: 'b' }],
        /"waitFor" must be an array/,
      ],
      [
        'a cycle of waitFor',
        [
          { ...view('a', '/jsonapi/node/season'), waitFor: ['b'] },
          { ...view('b', '/jsonapi/node/season'), waitFor: ['a'] },
        ],
        /cycle/,
      ],
      ['waiting for itself', [{ ...view('a', '/jsonapi/node/season'), waitFor: ['a'] }], /cycle/],
      [
        'a token reading an item not waited for',
        [view('a', '/jsonapi/node/season'), view('b', '/jsonapi/node/season/{{a.body@$.data[0].id}}')],
        /not in its "waitFor"/,
      ],
      [
        'a wildcard JSONPath',
        [
          view('a', '/jsonapi/node/season'),
          { ...view('b', '/jsonapi/node/season/{{a.body@$.data[*].id}}'), waitFor: ['a'] },
        ],
        /JSONPath/,
      ],
      [
        'a recursive JSONPath',
        [view('a', '/jsonapi/node/season'), { ...view('b', '/jsonapi/node/season/{{a.body@$..id}}'), waitFor: ['a'] }],
        /JSONPath/,
      ],
      ['a body', [{ ...view('a', '/jsonapi/node/season'), body: '{}' }], /body/],
      ['action create', [{ requestId: 'a', uri: '/jsonapi/node/season', action: 'create' }], /action "view"/],
      ['action delete', [{ requestId: 'a', uri: '/jsonapi/node/season', action: 'delete' }], /action "view"/],
      ['no action', [{ requestId: 'a', uri: '/jsonapi/node/season' }], /action "view"/],
      [
        'a duplicate requestId',
        [view('a', '/jsonapi/node/season'), view('a', '/jsonapi/node/reporting_period')],
        /used twice/,
      ],
      ['no requestId', [{ uri: '/jsonapi/node/season', action: 'view' }], /requestId/],
      ['a uri outside /jsonapi/', [view('a', '/oauth/debug?_format=json')], /under \/jsonapi\//],
      ['a uri stepping out of /jsonapi/', [view('a', '/jsonapi/../oauth/debug')], /under \/jsonapi\//],
      ['an encoded step out', [view('a', '/jsonapi/%2e%2e/council/users')], /under \/jsonapi\//],
      ['an absolute uri', [view('a', 'http://elsewhere.example/jsonapi/node/season')], /under \/jsonapi\//],
      ['headers that are not strings', [{ ...view('a', '/jsonapi/node/season'), headers: { accept: 1 } }], /headers/],
      ['an unknown member', [{ ...view('a', '/jsonapi/node/season'), method: 'DELETE' }], /unknown member "method"/],
      [
        `more than ${MAX_SUBREQUESTS}`,
        Array.from({ length: MAX_SUBREQUESTS + 1 }, (_, i) => view(`r${i}`, '/jsonapi/node/season')),
        /at most 10/,
      ],
    ];
    it.each(cases)('%s', async (_name, blueprint, detail) => {
      const r = await batch(d.tokens.alice, blueprint);
      expect(r.status).toBe(400);
      const body = r.json() as unknown as { errors: Array<{ status: string; detail: string }> };
      expect(body.errors[0].status).toBe('400');
      expect(body.errors[0].detail).toMatch(detail);
    });

    it('accepts exactly 10', async () => {
      const r = await batch(
        d.tokens.alice,
        Array.from({ length: MAX_SUBREQUESTS }, (_, i) => view(`r${i}`, '/jsonapi/node/season')),
      );
      expect(r.status).toBe(207);
      expect(Object.keys(r.json())).toHaveLength(MAX_SUBREQUESTS);
    });
  });

  it('writes nothing: every table is the same after batches, bad ones included', async () => {
    const snapshot = async () => {
      // This test's own tables only: on PostgreSQL other test files have schemas of their own in the same database.
      const schema =
        target.dialect === 'postgres'
          ? String((await sql<{ s: string }>`select current_schema() as s`.execute(d.ctx.db)).rows[0].s)
          : undefined;
      const tables = (await d.ctx.db.introspection.getTables())
        .filter((t) => t.schema === schema)
        .map((t) => t.name)
        .sort();
      const out: Record<string, unknown[]> = {};
      for (const table of tables)
        out[table] = await d.ctx.db
          .selectFrom(table as never)
          .selectAll()
          .execute();
      return { tables, out };
    };
    const before = await snapshot();
    expect(before.tables).toContain('invoices');
    await batch(d.tokens.alice, [
      view('s', '/jsonapi/node/season'),
      view('i', `/jsonapi/node/invoice?${q({ 'filter[field_handler.id]': h101 })}`),
    ]);
    await batch(d.tokens.alice, [
      { requestId: 'c', uri: '/jsonapi/node/handler_packet_confirmation', action: 'create', body: '{"data":{}}' },
    ]);
    await batch(d.tokens.alice, [{ requestId: 'd', uri: `/jsonapi/node/handler/${h101}`, action: 'delete' }]);
    expect(await snapshot()).toEqual(before);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, ids } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { DEMO_PASSWORD, DEMO_TODAY, demoApp, type DemoApp } from '../test-support/demo.js';
import { ensureDocumentRows, resources } from '../test-support/jsonapi-fixtures.js';

/**
 * The calls of the product spec, section 7, made as the web app makes them: the query strings are written the way
 * drupal-jsonapi-params writes them (brackets percent-encoded, filter keys named after their path, values of a
 * list indexed), with bearer authentication and application/vnd.api+json. Signed in as alice (handler 101).
 */
type Pair = [string, string];
const query = (...pairs: Pair[]) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
const condition = (key: string, path: string, value: string, memberOf?: string): Pair[] => [
  [`filter[${key}][condition][path]`, path],
  [`filter[${key}][condition][value]`, value],
  ...(memberOf ? [[`filter[${key}][condition][memberOf]`, memberOf] as Pair] : []),
];

describeEachDatabase('spec section 7 calls', (target) => {
  let d: DemoApp;
  let h101: string;
  let seasons: Array<{ id: string; title: string; start: string }>;
  let current: { id: string; title: string };
  const get = (url: string, who: keyof DemoApp['tokens'] = 'alice') => api(d.app, d.tokens[who], 'GET', url);
  const form = (payload: Record<string, string>) =>
    d.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(payload).toString(),
    });

  beforeAll(async () => {
    d = await demoApp(target);
    await ensureDocumentRows(d.ctx);
    h101 = d.handlers['101'];
    const rows = await d.ctx.db
      .selectFrom('seasons')
      .select(['id', 'title', 'season_start_date'])
      .orderBy('season_start_date', 'desc')
      .execute();
    seasons = rows.map((r) => ({ id: String(r.id), title: String(r.title), start: String(r.season_start_date) }));
    current = seasons[0];
  });
  afterAll(async () => {
    await d?.close();
  });

  it('POST /oauth/token (password), then (refresh): rotates, and a used refresh token is refused', async () => {
    const r = await form({
      grant_type: 'password',
      client_id: 'portal-web',
      scope: '',
      username: 'alice',
      password: DEMO_PASSWORD,
    });
    expect(r.statusCode, r.body).toBe(200);
    const token = r.json();
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(300);
    expect(typeof token.access_token).toBe('string');
    expect(r.headers['cache-control']).toBe('no-store');
    const bad = await form({
      grant_type: 'password',
      client_id: 'portal-web',
      username: 'alice',
      password: 'wrong-password',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('invalid_grant');

    const refreshed = await form({
      grant_type: 'refresh_token',
      client_id: 'portal-web',
      refresh_token: token.refresh_token,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const next = refreshed.json();
    expect(next.access_token).not.toBe(token.access_token);
    expect(next.refresh_token).not.toBe(token.refresh_token);
    expect((await api(d.app, next.access_token, 'GET', '/jsonapi/node/season')).status).toBe(200);
    // Replaying the used token is refused and ends the family: the rotated access token stops working too.
    const replay = await form({
      grant_type: 'refresh_token',
      client_id: 'portal-web',
      refresh_token: token.refresh_token,
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    expect((await api(d.app, next.access_token, 'GET', '/jsonapi/node/season')).status).toBe(401);
  });

  it('GET /oauth/debug?_format=json', async () => {
    const alice = await d.ctx.db.selectFrom('users').select('id').where('name', '=', 'alice').executeTakeFirstOrThrow();
    const r = await d.app.inject({
      method: 'GET',
      url: '/oauth/debug?_format=json',
      headers: { authorization: `Bearer ${d.tokens.alice}` },
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.id).toBe(alice.id);
    expect(body.name).toBe('alice');
    expect(body.roles).toContain('handler');
    expect(body.roles).not.toContain('staff');
    expect(body.expires).toBe(Math.floor(Date.parse(DEMO_TODAY) / 1000) + 300);
    expect((await d.app.inject({ method: 'GET', url: '/oauth/debug?_format=json' })).statusCode).toBe(401);
  });

  it('GET /jsonapi/user/user filtered on name: id, field_first_name, field_user_handler_company.id', async () => {
    const r = await get(`/jsonapi/user/user?${query(['filter[name]', 'alice'])}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].attributes.field_first_name).toBe('Alice');
    expect(r.body.data[0].relationships.field_user_handler_company.data).toEqual({ type: 'node--handler', id: h101 });
  });

  it('GET /jsonapi/node/handler/{id} with field_handler_analytics and field_handler_packet_confirms', async () => {
    const analytics = await d.ctx.db
      .selectFrom('handler_analytics')
      .select('id')
      .where('handler_id', '=', h101)
      .execute();
    const confirms = await d.ctx.db
      .selectFrom('handler_packet_confirmations')
      .select('id')
      .where('handler_id', '=', h101)
      .execute();
    expect(analytics.length).toBeGreaterThan(0);
    expect(confirms.length).toBeGreaterThan(0);
    const r = await get(
      `/jsonapi/node/handler/${h101}?${query(['include', 'field_handler_analytics,field_handler_packet_confirms'])}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.data.attributes.field_handler_number).toBe('101');
    const rel = r.body.data.relationships;
    expect(rel.field_handler_analytics.data.map((x: { id: string }) => x.id).sort()).toEqual(
      analytics.map((a) => String(a.id)).sort(),
    );
    expect(rel.field_handler_packet_confirms.data.map((x: { id: string }) => x.id).sort()).toEqual(
      confirms.map((c) => String(c.id)).sort(),
    );
    const included = resources(r.body)
      .included.map((i) => `${i.type}:${i.id}`)
      .sort();
    expect(included).toEqual(
      [
        ...analytics.map((a) => `node--handler_analytics:${String(a.id)}`),
        ...confirms.map((c) => `node--handler_packet_confirmation:${String(c.id)}`),
      ].sort(),
    );
  });

  it('GET /jsonapi/node/handler_packet_confirmation by handler id and season id, page limit 1', async () => {
    const search = (seasonId: string) =>
      get(
        `/jsonapi/node/handler_packet_confirmation?${query(
          ['filter[field_handler.id]', h101],
          ['filter[field_season.id]', seasonId],
          ['page[limit]', '1'],
        )}`,
      );
    const past = seasons[1];
    const existing = await d.ctx.db
      .selectFrom('handler_packet_confirmations')
      .select('id')
      .where('handler_id', '=', h101)
      .where('season_id', '=', past.id)
      .executeTakeFirstOrThrow();
    const r = await search(past.id);
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([existing.id]);
    expect(r.body.data[0].attributes.field_handler_packet_confirm).toBe(true);
    expect(r.body.links.next).toBeUndefined();
    expect((await search(seasons[2].id)).body.data).toEqual([]);
  });

  it('packet confirmation: POST for the current season, POST the handler relationship, PATCH to confirmed; a second POST is 409', async () => {
    const searchUrl = `/jsonapi/node/handler_packet_confirmation?${query(['filter[field_handler.id]', h101], ['filter[field_season.id]', current.id], ['page[limit]', '1'])}`;
    expect((await get(searchUrl)).body.data).toEqual([]);
    const body = (confirm: boolean) => ({
      data: {
        type: 'node--handler_packet_confirmation',
        attributes: {
          title: `Handler Packet Confirmation - 101 - ${current.title}`,
          field_handler_packet_confirm: confirm,
          field_certification_datetime: '2026-11-22T11:59:30.000Z',
          field_certification_name: 'Alice Moreno',
        },
        relationships: {
          field_season: { data: { type: 'node--season', id: current.id } },
          field_handler: { data: { type: 'node--handler', id: h101 } },
        },
      },
    });
    const created = await api(d.app, d.tokens.alice, 'POST', '/jsonapi/node/handler_packet_confirmation', body(false));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    expect(created.headers.location).toMatch(new RegExp(`/jsonapi/node/handler_packet_confirmation/${id}$`));
    expect(created.body.data.attributes.field_handler_packet_confirm).toBe(false);
    expect(created.body.data.relationships.field_handler.data.id).toBe(h101);

    const link = await api(
      d.app,
      d.tokens.alice,
      'POST',
      `/jsonapi/node/handler/${h101}/relationships/field_handler_packet_confirms`,
      { data: [{ type: 'node--handler_packet_confirmation', id }] },
    );
    expect(link.status, JSON.stringify(link.body)).toBe(204);

    const patched = await api(d.app, d.tokens.alice, 'PATCH', `/jsonapi/node/handler_packet_confirmation/${id}`, {
      data: {
        type: 'node--handler_packet_confirmation',
        id,
        attributes: {
          field_handler_packet_confirm: true,
          title: `Handler Packet Confirmation - 101 - ${current.title}`,
          field_certification_datetime: '2026-11-22T12:00:00.000Z',
          field_certification_name: 'Alice Moreno',
        },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.attributes.field_handler_packet_confirm).toBe(true);
    expect(patched.body.data.attributes.field_certification_name).toBe('Alice Moreno');
    // The certification time is the server's.
    expect(patched.body.data.attributes.field_certification_datetime).toBe('2026-11-22T12:00:00+00:00');
    const row = await d.ctx.db
      .selectFrom('handler_packet_confirmations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.handler_packet_confirm === true || row.handler_packet_confirm === 1).toBe(true);

    const again = await api(d.app, d.tokens.alice, 'POST', '/jsonapi/node/handler_packet_confirmation', body(true));
    expect(again.status).toBe(409);
    expect(again.body.errors[0].status).toBe('409');
    const count = await d.ctx.db
      .selectFrom('handler_packet_confirmations')
      .select('id')
      .where('handler_id', '=', h101)
      .where('season_id', '=', current.id)
      .execute();
    expect(count).toHaveLength(1);
    expect(ids((await get(searchUrl)).body)).toEqual([id]);
    const handler = await get(
      `/jsonapi/node/handler/${h101}?${query(['include', 'field_handler_analytics,field_handler_packet_confirms'])}`,
    );
    expect(
      handler.body.data.relationships.field_handler_packet_confirms.data.map((x: { id: string }) => x.id),
    ).toContain(id);
  });

  it('GET /jsonapi/node/invoice filtered by field_handler.id with includes, page[limit]=200', async () => {
    const own = await d.ctx.db
      .selectFrom('invoices')
      .select(['id', 'invoice_pdf_id', 'form_1_id', 'period_id'])
      .where('handler_id', '=', h101)
      .execute();
    expect(own.length).toBeGreaterThan(20);
    const r = await get(
      `/jsonapi/node/invoice?${query(['filter[field_handler.id]', h101], ['include', 'field_invoice_pdf,field_reporting_period,field_form_1'], ['page[limit]', '200'])}`,
    );
    expect(r.status).toBe(200);
    expect(ids(r.body).sort()).toEqual(own.map((i) => String(i.id)).sort());
    expect(r.body.links.next).toBeUndefined();
    const inc = resources(r.body).included;
    expect(
      inc
        .filter((i) => i.type === 'file--file')
        .map((i) => i.id)
        .sort(),
    ).toEqual([...new Set(own.map((i) => String(i.invoice_pdf_id)))].sort());
    expect(
      inc
        .filter((i) => i.type === 'node--apc_form_1')
        .map((i) => i.id)
        .sort(),
    ).toEqual([...new Set(own.map((i) => String(i.form_1_id)))].sort());
    expect(
      inc
        .filter((i) => i.type === 'node--reporting_period')
        .map((i) => i.id)
        .sort(),
    ).toEqual([...new Set(own.map((i) => String(i.period_id)))].sort());
    for (const inv of r.body.data) expect(inv.attributes.field_amount_due).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('GET /jsonapi/node/reporting_forms_package by handler and season, due date descending, with periods, forms and PDFs', async () => {
    const expected = await d.ctx.db
      .selectFrom('reporting_forms_packages as k')
      .innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
      .select(['k.id', 'p.id as period_id', 'p.period_month'])
      .where('k.handler_id', '=', h101)
      .where('p.season_id', '=', current.id)
      .orderBy('p.due_date', 'desc')
      .execute();
    expect(expected.map((e) => e.period_month)).toEqual(['2026-11', '2026-10', '2026-09']);
    const include =
      'field_reporting_period,field_form_1,field_form_2,field_form_3,field_form_1.field_form_1_pdf,field_form_2.field_form_2_pdf,field_form_3.field_form_3_pdf';
    const r = await get(
      `/jsonapi/node/reporting_forms_package?${query(
        ['filter[field_handler.id]', h101],
        ['filter[field_reporting_period.field_season.id]', current.id],
        ['sort', '-field_reporting_period.field_due_date'],
        ['include', include],
      )}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r.body)).toEqual(expected.map((e) => String(e.id)));
    const inc = resources(r.body).included;
    const pkgIds = expected.map((e) => String(e.id));
    const pdfs: string[] = [];
    for (const n of [1, 2, 3] as const) {
      const forms = await d.ctx.db
        .selectFrom(`apc_form_${n}`)
        .select(['id', `form_${n}_pdf_id as pdf`])
        .where('package_id', 'in', pkgIds)
        .execute();
      expect(
        inc
          .filter((i) => i.type === `node--apc_form_${n}`)
          .map((i) => i.id)
          .sort(),
      ).toEqual(forms.map((f) => String(f.id)).sort());
      pdfs.push(...forms.map((f) => f.pdf).filter((p): p is string => typeof p === 'string'));
    }
    expect(
      inc
        .filter((i) => i.type === 'file--file')
        .map((i) => i.id)
        .sort(),
    ).toEqual(pdfs.sort());
    expect(
      inc
        .filter((i) => i.type === 'node--reporting_period')
        .map((i) => i.id)
        .sort(),
    ).toEqual(expected.map((e) => String(e.period_id)).sort());
    // The current month is a draft with no PDF; the earlier ones are certified with one.
    const first = r.body.data[0].relationships;
    const draft = inc.find((i) => i.id === first.field_form_1.data[0].id)!;
    expect(draft.attributes.field_form_status).toBe('draft');
    expect(draft.relationships!.field_form_1_pdf.data).toBeNull();
  });

  it('GET /jsonapi/node/apc_form_5 by field_handler.id, sorted by season due date descending, with includes', async () => {
    const expected = await d.ctx.db
      .selectFrom('apc_form_5 as f')
      .innerJoin('seasons as s', 's.id', 'f.season_id')
      .select(['f.id', 's.title'])
      .where('f.handler_id', '=', h101)
      .orderBy('s.reporting_due_date', 'desc')
      .execute();
    expect(expected.map((e) => e.title)).toEqual(['2025-2026', '2024-2025']);
    const r = await get(
      `/jsonapi/node/apc_form_5?${query(['filter[field_handler.id]', h101], ['sort', '-field_season.field_reporting_due_date'], ['include', 'field_season,field_form_5_pdf'])}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r.body)).toEqual(expected.map((e) => String(e.id)));
    expect(resources(r.body).included.filter((i) => i.type === 'file--file')).toHaveLength(2);
  });

  it('GET /jsonapi/node/season sorted by field_season_start_date descending; the current one is flagged', async () => {
    const r = await get(`/jsonapi/node/season?${query(['sort', '-field_season_start_date'])}`);
    expect(r.status).toBe(200);
    expect(r.body.data.map((s: { attributes: { title: string } }) => s.attributes.title)).toEqual([
      '2026-2027',
      '2025-2026',
      '2024-2025',
    ]);
    expect(
      r.body.data.map((s: { attributes: { field_current_season: boolean } }) => s.attributes.field_current_season),
    ).toEqual([true, false, false]);
  });

  it('GET /jsonapi/node/apc_form_4: season, activity active, receiving OR transferring is the own handler', async () => {
    const url = (handlerId: string, seasonId: string) =>
      `/jsonapi/node/apc_form_4?${query(
        ['filter[field_season.id]', seasonId],
        ['filter[field_form_activity]', 'active'],
        ['filter[party][group][conjunction]', 'OR'],
        ...condition('field_receiving_handler.id', 'field_receiving_handler.id', handlerId, 'party'),
        ...condition('field_transferring_handler.id', 'field_transferring_handler.id', handlerId, 'party'),
      )}`;
    const expected = async (handlerId: string, seasonId: string) =>
      (
        await d.ctx.db
          .selectFrom('apc_form_4')
          .select('id')
          .where('season_id', '=', seasonId)
          .where('form_activity', '=', 'active')
          .where((eb) =>
            eb.or([eb('receiving_handler_id', '=', handlerId), eb('transferring_handler_id', '=', handlerId)]),
          )
          .execute()
      )
        .map((f) => String(f.id))
        .sort();
    const all = await d.ctx.db.selectFrom('apc_form_4').select('id').where('season_id', '=', current.id).execute();
    expect(all.length).toBe(2); // one active, one cancelled
    const mine = await expected(h101, current.id);
    expect(mine).toHaveLength(1);
    const r = await get(url(h101, current.id));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r.body).sort()).toEqual(mine);
    // Carol (102, the receiving side) sees the same agreement; dave (103) none.
    expect(ids((await get(url(d.handlers['102'], current.id), 'carol')).body).sort()).toEqual(
      await expected(d.handlers['102'], current.id),
    );
    expect((await get(url(d.handlers['103'], current.id), 'dave')).body.data).toEqual([]);
    expect(ids((await get(url(h101, seasons[1].id))).body).sort()).toEqual(await expected(h101, seasons[1].id));
  });

  it('GET /jsonapi/node/handler filtered on the directory flag', async () => {
    const r = await get(`/jsonapi/node/handler?${query(['filter[field_show_in_handler_directory]', '1'])}`);
    expect(r.status).toBe(200);
    expect(
      r.body.data
        .map((h: { attributes: { field_handler_number: string } }) => h.attributes.field_handler_number)
        .sort(),
    ).toEqual(['101', '102']);
    const mesa = r.body.data.find((h: { id: string }) => h.id === d.handlers['102']);
    expect(mesa.attributes.title).toBe('Mesa Valley Pecans');
    expect(mesa.relationships?.field_handler_packet_confirms).toBeUndefined();
    expect(mesa.relationships?.field_handler_analytics).toBeUndefined();
  });

  it('GET /jsonapi/node/monthly_position_report by season and published, due date descending', async () => {
    const reports = await d.ctx.db
      .selectFrom('monthly_position_reports as m')
      .innerJoin('reporting_periods as p', 'p.id', 'm.period_id')
      .select(['m.id', 'm.publish_to_portal', 'p.season_id'])
      .orderBy('p.due_date', 'desc')
      .execute();
    const isPublished = (r: { publish_to_portal: unknown }) =>
      r.publish_to_portal === true || r.publish_to_portal === 1;
    // The demo has unpublished reports; the season asked for is one that has some, when there is one.
    const unpublished = reports.filter((r) => !isPublished(r));
    expect(unpublished.length).toBeGreaterThan(0);
    const seasonId = String(
      unpublished.find((u) => reports.some((r) => r.season_id === u.season_id && isPublished(r)))?.season_id ??
        seasons[1].id,
    );
    const published = reports.filter((r) => r.season_id === seasonId && isPublished(r)).map((r) => String(r.id));
    expect(published.length).toBeGreaterThan(0);
    const r = await get(
      `/jsonapi/node/monthly_position_report?${query(
        ['filter[field_reporting_period.field_season.id]', seasonId],
        ['filter[field_publish_to_portal]', '1'],
        ['sort', '-field_reporting_period.field_due_date'],
        ['include', 'field_position_report_pdf'],
      )}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r.body)).toEqual(published);
    // Without the published filter, a handler user still never sees an unpublished report.
    const all = await get(
      `/jsonapi/node/monthly_position_report?${query(['filter[field_reporting_period.field_season.id]', seasonId], ['sort', '-field_reporting_period.field_due_date'])}`,
    );
    expect(ids(all.body)).toEqual(published);
    const everything = await get(
      '/jsonapi/node/monthly_position_report?page[limit]=500&sort=-field_reporting_period.field_due_date',
    );
    expect(ids(everything.body)).toEqual(reports.filter(isPublished).map((x) => String(x.id)));
    expect((await get('/jsonapi/node/monthly_position_report?filter[field_publish_to_portal]=0')).body.data).toEqual(
      [],
    );
  });

  it('GET /jsonapi/node/annual_position_report sorted by season start descending', async () => {
    const expected = await d.ctx.db
      .selectFrom('annual_position_reports as a')
      .innerJoin('seasons as s', 's.id', 'a.season_id')
      .select('a.id')
      .orderBy('s.season_start_date', 'desc')
      .execute();
    expect(expected.length).toBeGreaterThan(1);
    const r = await get(
      `/jsonapi/node/annual_position_report?${query(['sort', '-field_season.field_season_start_date'], ['include', 'field_season,field_position_report_pdf'])}`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r.body)).toEqual(expected.map((e) => String(e.id)));
  });

  it('GET /jsonapi/node/industry_analytics with field_industry_analytics_xlsx', async () => {
    const expected = await d.ctx.db
      .selectFrom('industry_analytics')
      .select(['id', 'industry_analytics_xlsx_id'])
      .execute();
    expect(expected.length).toBeGreaterThan(0);
    const r = await get(`/jsonapi/node/industry_analytics?${query(['include', 'field_industry_analytics_xlsx'])}`);
    expect(r.status).toBe(200);
    expect(ids(r.body).sort()).toEqual(expected.map((e) => String(e.id)).sort());
    const files = resources(r.body).included;
    expect(files.map((f) => f.id).sort()).toEqual(expected.map((e) => String(e.industry_analytics_xlsx_id)).sort());
    for (const f of files) {
      expect(f.type).toBe('file--file');
      expect(String((f.attributes.uri as { url: string }).url)).toMatch(
        /\/files\/.+\?expires=\d+&session=[\w-]+&signature=/,
      );
    }
  });

  it('the user directory: users of the own handler with field_show_in_directory=1 (alice sees alice, not bob)', async () => {
    const r = await get(
      `/jsonapi/user/user?${query(['filter[field_user_handler_company.id]', h101], ['filter[field_show_in_directory]', '1'])}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.data.map((u: { attributes: { name: string } }) => u.attributes.name)).toEqual(['alice']);
    // Bob is not in the directory: even without the flag filter, alice cannot list or read him.
    const all = await get(`/jsonapi/user/user?${query(['filter[field_user_handler_company.id]', h101])}`);
    expect(all.body.data.map((u: { attributes: { name: string } }) => u.attributes.name)).toEqual(['alice']);
    // Bob sees alice's directory card without her mail.
    const bob = await get(
      `/jsonapi/user/user?${query(['filter[field_user_handler_company.id]', h101], ['filter[field_show_in_directory]', '1'])}`,
      'bob',
    );
    expect(bob.body.data.map((u: { attributes: { name: string } }) => u.attributes.name)).toEqual(['alice']);
    expect(bob.body.data[0].attributes.mail).toBeUndefined();
    expect(r.body.data[0].attributes.mail).toBe('alice@example.com');
  });
});

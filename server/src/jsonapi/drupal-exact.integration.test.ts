import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, ids } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { serialOf } from './resource.js';

/**
 * Where a Drupal client notices a difference (issue 34): the media type without parameters, 415 for plain JSON,
 * 405 with Allow, Drupal's expanded sort, the pager's `first`, the base fields Drupal clients filter on, and one
 * rule for text comparisons. Signed in as alice (handler 101) unless said otherwise.
 */
describeEachDatabase('Drupal-exact behaviour', (target) => {
  let d: DemoApp;
  const get = (url: string, who: keyof DemoApp['tokens'] = 'alice') => api(d.app, d.tokens[who], 'GET', url);
  const raw = (method: string, url: string, contentType: string | undefined, body?: unknown) =>
    d.app.inject({
      method: method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${d.tokens.alice}`,
        accept: 'application/vnd.api+json',
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
  let draftId: string;
  let draftTitle: string;

  beforeAll(async () => {
    d = await demoApp(target);
    const draft = await d.ctx.db
      .selectFrom('apc_form_1')
      .select(['id', 'title'])
      .where('handler_id', '=', d.handlers['101'])
      .where('form_status', '=', 'draft')
      .executeTakeFirstOrThrow();
    draftId = String(draft.id);
    draftTitle = String(draft.title);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('sends application/vnd.api+json without parameters: documents, errors, 201, 200 and the entry point', async () => {
    const bare = 'application/vnd.api+json';
    expect((await get('/jsonapi')).headers['content-type']).toBe(bare);
    expect((await get('/jsonapi/node/season')).headers['content-type']).toBe(bare);
    expect((await get('/jsonapi/node/season/nope')).headers['content-type']).toBe(bare);
    expect((await get('/jsonapi/node/season?sort=nope')).headers['content-type']).toBe(bare);
    expect((await api(d.app, null, 'GET', '/jsonapi/node/season')).headers['content-type']).toBe(bare);
    const patched = await api(d.app, d.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_1/${draftId}`, {
      data: { type: 'node--apc_form_1', id: draftId, attributes: {} },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers['content-type']).toBe(bare);
    const season = await d.ctx.db.selectFrom('seasons').select('id').executeTakeFirstOrThrow();
    const created = await api(d.app, d.tokens.staff, 'POST', '/jsonapi/node/reporting_period', {
      data: {
        type: 'node--reporting_period',
        attributes: { title: 'Test month', field_period_month: '2031-01', field_due_date: '2031-02-15' },
        relationships: { field_season: { data: { type: 'node--season', id: season.id } } },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers['content-type']).toBe(bare);
  });

  it('refuses a write sent as application/json with 415, changing nothing', async () => {
    const before = await d.ctx.db
      .selectFrom('apc_form_1')
      .select('changed')
      .where('id', '=', draftId)
      .executeTakeFirstOrThrow();
    const r = await raw('PATCH', `/jsonapi/node/apc_form_1/${draftId}`, 'application/json', {
      data: { type: 'node--apc_form_1', id: draftId, attributes: { field_amendment_reason: 'x' } },
    });
    expect(r.statusCode).toBe(415);
    expect(r.headers['content-type']).toBe('application/vnd.api+json');
    expect(r.json().errors[0].status).toBe('415');
    const post = await raw('POST', '/jsonapi/node/apc_form_1', 'application/json; charset=utf-8', {
      data: { type: 'node--apc_form_1' },
    });
    expect(post.statusCode).toBe(415);
    const after = await d.ctx.db
      .selectFrom('apc_form_1')
      .select('changed')
      .where('id', '=', draftId)
      .executeTakeFirstOrThrow();
    expect(after.changed).toBe(before.changed);
  });

  it('answers a method an address does not take with 405 and Allow', async () => {
    const item = await raw('POST', `/jsonapi/node/apc_form_1/${draftId}`, 'application/vnd.api+json', {
      data: { type: 'node--apc_form_1' },
    });
    expect(item.statusCode).toBe(405);
    expect(item.headers.allow).toBe('GET, PATCH, DELETE');
    expect(item.json().errors[0].status).toBe('405');
    const collection = await raw('DELETE', '/jsonapi/node/apc_form_1', undefined);
    expect(collection.statusCode).toBe(405);
    expect(collection.headers.allow).toBe('GET, POST');
    // A type that does not exist is still a 404.
    expect((await raw('POST', `/jsonapi/node/nope/${draftId}`, 'application/vnd.api+json', {})).statusCode).toBe(404);
  });

  it("takes Drupal's expanded sort form, with its direction and langcode", async () => {
    const short = await get('/jsonapi/node/season?sort=-field_season_start_date,title');
    const expanded = await get(
      '/jsonapi/node/season?sort[a][path]=field_season_start_date&sort[a][direction]=DESC&sort[b][path]=title&sort[b][langcode]=en',
    );
    expect(expanded.status, expanded.text).toBe(200);
    expect(ids(expanded.body)).toEqual(ids(short.body));
    const ascending = await get('/jsonapi/node/season?sort[0][path]=field_season_start_date&sort[0][direction]=asc');
    expect(ids(ascending.body)).toEqual(ids(short.body).reverse());
    for (const [url, parameter] of [
      ['sort[a][direction]=DESC', 'sort[a][path]'],
      ['sort[a][path]=title&sort[a][direction]=UP', 'sort[a][direction]'],
      ['sort[a][path]=title&sort[a][langcode]=fr', 'sort[a][langcode]'],
      ['sort[a][path]=title&sort[a][nope]=1', 'sort[a][nope]'],
      ['sort[a][path]=nope', 'sort'],
      ['sort[a][path]=constructor', 'sort[a][path]'],
    ]) {
      const r = await get(`/jsonapi/node/season?${url}`);
      expect(r.status, url).toBe(400);
      expect(r.body.errors[0].source.parameter, url).toBe(parameter);
    }
  });

  it('gives first and prev beside next when the offset is above 0, as Drupal does', async () => {
    const firstPage = await get('/jsonapi/node/reporting_period?page[limit]=2');
    expect(Object.keys(firstPage.body.links).sort()).toEqual(['next', 'self']);
    const second = await get('/jsonapi/node/reporting_period?page[offset]=2&page[limit]=2&sort=field_period_month');
    const links = second.body.links;
    expect(Object.keys(links).sort()).toEqual(['first', 'next', 'prev', 'self']);
    const params = (href: string) => Object.fromEntries(new URL(href).searchParams);
    expect(params(links.first.href)).toMatchObject({
      'page[offset]': '0',
      'page[limit]': '2',
      sort: 'field_period_month',
    });
    expect(params(links.prev.href)).toMatchObject({ 'page[offset]': '0', 'page[limit]': '2' });
    expect(params(links.next.href)).toMatchObject({ 'page[offset]': '4', 'page[limit]': '2' });
    // prev never goes below 0.
    const odd = await get('/jsonapi/node/reporting_period?page[offset]=1&page[limit]=2');
    expect(params(odd.body.links.prev.href)['page[offset]']).toBe('0');
  });

  it('has the node base fields status, langcode and drupal_internal__nid, filterable and sortable', async () => {
    const all = await get(`/jsonapi/node/apc_form_1?filter[status]=1&page[limit]=500`);
    expect(all.status, all.text).toBe(200);
    const mine = await d.ctx.db
      .selectFrom('apc_form_1')
      .select('id')
      .where('handler_id', '=', d.handlers['101'])
      .execute();
    expect(ids(all.body).sort()).toEqual(mine.map((r) => String(r.id)).sort());
    const item = all.body.data.find((f: { id: string }) => f.id === draftId);
    expect(item.attributes).toMatchObject({ status: true, langcode: 'en', drupal_internal__nid: serialOf(draftId) });
    expect(Number.isSafeInteger(item.attributes.drupal_internal__nid)).toBe(true);
    expect(ids((await get('/jsonapi/node/apc_form_1?filter[status]=0')).body)).toEqual([]);
    expect(ids((await get('/jsonapi/node/apc_form_1?filter[langcode]=en&page[limit]=500')).body)).toHaveLength(
      mine.length,
    );
    const byNid = await get(`/jsonapi/node/apc_form_1?filter[drupal_internal__nid]=${serialOf(draftId)}`);
    expect(ids(byNid.body)).toEqual([draftId]);
    const sorted = await get(
      '/jsonapi/node/apc_form_1?sort=-drupal_internal__nid&page[limit]=500&fields[node--apc_form_1]=drupal_internal__nid',
    );
    const nids = sorted.body.data.map(
      (f: { attributes: { drupal_internal__nid: number } }) => f.attributes.drupal_internal__nid,
    );
    expect(nids).toEqual([...nids].sort((a, b) => b - a));
    expect(Object.keys(sorted.body.data[0].attributes)).toEqual(['drupal_internal__nid']);
    // Carol (handler 102) cannot find alice's form by its number: the read rule still holds.
    expect(
      ids((await get(`/jsonapi/node/apc_form_1?filter[drupal_internal__nid]=${serialOf(draftId)}`, 'carol')).body),
    ).toEqual([]);
    // Not writable.
    const w = await api(d.app, d.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_1/${draftId}`, {
      data: { type: 'node--apc_form_1', id: draftId, attributes: { status: false } },
    });
    expect(w.status).toBeGreaterThanOrEqual(400);
    expect(w.status).toBeLessThan(500);
  });

  it('has the user base fields display_name and drupal_internal__uid', async () => {
    const alice = await d.ctx.db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('name', '=', 'alice')
      .executeTakeFirstOrThrow();
    const r = await get(`/jsonapi/user/user/${alice.id}`);
    expect(r.body.data.attributes).toMatchObject({
      display_name: `${alice.first_name} ${alice.last_name}`,
      drupal_internal__uid: serialOf(alice.id),
    });
    const byUid = await get(`/jsonapi/user/user?filter[drupal_internal__uid]=${serialOf(alice.id)}`);
    expect(ids(byUid.body)).toEqual([alice.id]);
    const byName = await get(
      `/jsonapi/user/user?filter[display_name]=${encodeURIComponent(`${alice.first_name} ${alice.last_name}`)}`,
      'staff',
    );
    expect(ids(byName.body)).toEqual([alice.id]);
    expect((await get('/jsonapi/user/user?sort=display_name', 'staff')).status).toBe(200);
  });

  it('compares text case- and accent-insensitively with every operator, as STARTS_WITH does (decision 0014)', async () => {
    const alice = await d.ctx.db.selectFrom('users').select('id').where('name', '=', 'alice').executeTakeFirstOrThrow();
    expect(ids((await get('/jsonapi/user/user?filter[name]=ALICE')).body)).toEqual([alice.id]);
    expect(
      ids(
        (
          await get(
            '/jsonapi/user/user?filter[n][path]=name&filter[n][operator]=IN&filter[n][value][]=Alice&filter[n][value][]=x',
          )
        ).body,
      ),
    ).toEqual([alice.id]);
    expect(
      ids(
        (await get('/jsonapi/user/user?filter[n][path]=name&filter[n][operator]=STARTS_WITH&filter[n][value]=ALI'))
          .body,
      ),
    ).toEqual([alice.id]);
    const upper = draftTitle.toUpperCase();
    expect(ids((await get(`/jsonapi/node/apc_form_1?filter[title]=${encodeURIComponent(upper)}`)).body)).toContain(
      draftId,
    );
    const notEqual = await get(
      `/jsonapi/node/apc_form_1?filter[t][path]=title&filter[t][operator]=<>&filter[t][value]=${encodeURIComponent(upper)}&page[limit]=500`,
    );
    expect(ids(notEqual.body)).not.toContain(draftId);
    // Ids compare exactly.
    expect(ids((await get(`/jsonapi/user/user?filter[id]=${String(alice.id).toUpperCase()}`)).body)).toEqual([]);
  });
});

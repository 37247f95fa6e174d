import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, signIn } from '../test-support/api.js';
import { describeEachDatabase, fixedClock } from '../test-support/databases.js';
import { DEMO_PASSWORD, DEMO_TODAY, demoApp, type DemoApp } from '../test-support/demo.js';
import { linkExpiry, linkPhase } from '../files/signing.js';
import { DOCUMENT_CACHE_HEADER } from './document-cache.js';

/**
 * The document cache (jsonapi/document-cache.ts): a read is sent again from what was built only while it would be
 * built the same, for the same reader; every write, through the API or not, and every new minute of a reader's file
 * links makes the next read build afresh.
 */
const invoices = (handlerId: string) =>
  `/jsonapi/node/invoice?filter%5Bfield_handler.id%5D=${handlerId}&include=field_invoice_pdf,field_reporting_period,field_form_1&page%5Blimit%5D=200`;
const cacheOf = (r: { headers: Record<string, unknown> }) => r.headers[DOCUMENT_CACHE_HEADER];
type Resource = {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { id: string } | null }>;
};

describeEachDatabase('the document cache', (target) => {
  let d: DemoApp;
  const clock = fixedClock(DEMO_TODAY);
  let aliceId: string;

  beforeAll(async () => {
    d = await demoApp(target, { clock });
    aliceId = String(
      (await d.ctx.db.selectFrom('users').select('id').where('name', '=', 'alice').executeTakeFirstOrThrow()).id,
    );
  });
  afterAll(async () => {
    await d?.close();
  });

  it('sends a read made again the very document it built the first time', async () => {
    const first = await api(d.app, d.tokens.alice, 'GET', invoices(d.handlers['101']));
    expect(first.status).toBe(200);
    expect(cacheOf(first)).toBe('MISS');
    const again = await api(d.app, d.tokens.alice, 'GET', invoices(d.handlers['101']));
    expect(cacheOf(again)).toBe('HIT');
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body.data.length).toBeGreaterThan(20);
  });

  it('sends text beyond ASCII kept as the same UTF-8 bytes, with their length', async () => {
    const me = `/jsonapi/user/user/${aliceId}`;
    const { first_name: was } = await d.ctx.db
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', aliceId)
      .executeTakeFirstOrThrow();
    await d.ctx.db.updateTable('users').set({ first_name: 'Zoë 李明' }).where('id', '=', aliceId).execute();
    try {
      const first = await api(d.app, d.tokens.alice, 'GET', me);
      const again = await api(d.app, d.tokens.alice, 'GET', me);
      expect([cacheOf(first), cacheOf(again)]).toEqual(['MISS', 'HIT']);
      expect(again.body.data.attributes.field_first_name).toBe('Zoë 李明');
      expect(again.text).toBe(first.text);
      expect(Number(again.headers['content-length'])).toBe(Buffer.byteLength(first.text));
    } finally {
      await d.ctx.db.updateTable('users').set({ first_name: was }).where('id', '=', aliceId).execute();
    }
  });

  it('keeps the compressed form too, per Accept-Encoding, and sends each client what it asked for', async () => {
    const url = `${invoices(d.handlers['101'])}&sort=-created`;
    const get = (encoding?: string) =>
      d.app.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Bearer ${d.tokens.alice}`,
          accept: 'application/vnd.api+json',
          ...(encoding ? { 'accept-encoding': encoding } : {}),
        },
      });
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const first = await get('gzip, deflate, br');
    const again = await get('gzip, deflate, br');
    expect([first.headers[DOCUMENT_CACHE_HEADER], again.headers[DOCUMENT_CACHE_HEADER]]).toEqual(['HIT', 'HIT']);
    expect([first.headers['content-encoding'], again.headers['content-encoding']]).toEqual(['br', 'br']);
    expect(again.headers.vary).toBe(first.headers.vary);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(plain.body);
    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const plainAgain = await get();
    expect(plainAgain.headers['content-encoding']).toBeUndefined();
    expect(plainAgain.body).toBe(plain.body);
  });

  it("never gives one reader's document to another, not even at the same address", async () => {
    const url = '/jsonapi/node/invoice?include=field_handler&page%5Blimit%5D=200';
    const alice = await api(d.app, d.tokens.alice, 'GET', url);
    expect(cacheOf(await api(d.app, d.tokens.alice, 'GET', url))).toBe('HIT');
    const carol = await api(d.app, d.tokens.carol, 'GET', url);
    expect(cacheOf(carol)).toBe('MISS');
    const handlerOf = (body: { data: Resource[] }) =>
      new Set(body.data.map((i) => i.relationships!.field_handler.data!.id));
    expect(handlerOf(alice.body)).toEqual(new Set([d.handlers['101']]));
    expect(handlerOf(carol.body)).toEqual(new Set([d.handlers['102']]));
    // Bob works for the same handler as Alice, yet gets a document built for him.
    expect(cacheOf(await api(d.app, d.tokens.bob, 'GET', url))).toBe('MISS');
    const staff = await api(d.app, d.tokens.staff, 'GET', url);
    expect(cacheOf(staff)).toBe('MISS');
    expect(handlerOf(staff.body).size).toBeGreaterThan(2);
  });

  it('builds afresh after a write through the API, for every reader it concerns', async () => {
    const contacts = `/jsonapi/user/user?filter%5Bfield_user_handler_company.id%5D=${d.handlers['101']}&sort=field_last_name`;
    expect((await api(d.app, d.tokens.bob, 'GET', contacts)).status).toBe(200);
    expect(cacheOf(await api(d.app, d.tokens.bob, 'GET', contacts))).toBe('HIT');
    const patch = await api(d.app, d.tokens.alice, 'PATCH', `/jsonapi/user/user/${aliceId}`, {
      data: { type: 'user--user', id: aliceId, attributes: { field_job_title: 'Head of shipping' } },
    });
    expect(patch.status, patch.text).toBe(200);
    const after = await api(d.app, d.tokens.bob, 'GET', contacts);
    expect(cacheOf(after)).toBe('MISS');
    expect((after.body.data as Resource[]).find((u) => u.id === aliceId)?.attributes.field_job_title).toBe(
      'Head of shipping',
    );
  });

  it('builds afresh after a change made in the database by anything else (a console, a script, another replica)', async () => {
    const handler = `/jsonapi/node/handler/${d.handlers['101']}`;
    await api(d.app, d.tokens.alice, 'GET', handler);
    expect(cacheOf(await api(d.app, d.tokens.alice, 'GET', handler))).toBe('HIT');
    await d.ctx.db
      .updateTable('handlers')
      .set({ phone: '+1 229 555 0142' })
      .where('id', '=', d.handlers['101'])
      .execute();
    const after = await api(d.app, d.tokens.alice, 'GET', handler);
    expect(cacheOf(after)).toBe('MISS');
    expect(after.body.data.attributes.field_phone).toBe('+1 229 555 0142');
  });

  it('keeps what it has when a write is refused (nothing changed)', async () => {
    const handler = `/jsonapi/node/handler/${d.handlers['101']}`;
    await api(d.app, d.tokens.alice, 'GET', handler);
    const refused = await api(d.app, d.tokens.alice, 'PATCH', `/jsonapi/user/user/${aliceId}`, {
      data: { type: 'user--user', id: aliceId, attributes: { field_show_in_directory: 'perhaps' } },
    });
    expect(refused.status).toBe(422);
    expect(cacheOf(await api(d.app, d.tokens.alice, 'GET', handler))).toBe('HIT');
  });

  it('keeps nothing for an address it refuses', async () => {
    const url = '/jsonapi/node/invoice?filter%5Bno_such_field%5D=1';
    for (let i = 0; i < 2; i += 1) {
      const r = await api(d.app, d.tokens.alice, 'GET', url);
      expect(r.status).toBe(400);
      expect(cacheOf(r)).toBeUndefined();
    }
  });

  it('asks for the bearer token every time: an ended session gets nothing kept', async () => {
    const token = await signIn(d.app, 'alice', DEMO_PASSWORD);
    const url = invoices(d.handlers['101']);
    expect((await api(d.app, token, 'GET', url)).status).toBe(200);
    await d.ctx.db
      .updateTable('oauth_token_families')
      .set({ revoked_at: clock.now().toISOString() })
      .where('user_id', '=', aliceId)
      .execute();
    const refused = await api(d.app, token, 'GET', url);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain(d.handlers['101']);
    d.tokens.alice = await signIn(d.app, 'alice', DEMO_PASSWORD);
  });

  /** The first second after `from` (epoch seconds) at which the links handed to a reader get a later expiry. */
  const rollOver = (readerId: string, from: number): number => {
    const expiry = (second: number) => linkExpiry(new Date(second * 1000), d.ctx.config.fileLinkTtl, readerId);
    let second = from + 1;
    while (expiry(second) === expiry(second - 1)) second += 1;
    return second;
  };
  const atSecond = (second: number) => clock.set(new Date(second * 1000).toISOString());
  const idOf = async (name: string) =>
    String((await d.ctx.db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id);

  it("signs file links anew each minute of the reader's: within it the links are the same, after it the document is built again", async () => {
    const start = Date.parse('2026-11-22T12:30:00Z') / 1000;
    atSecond(start);
    // A token signed in now: the demo's tokens were made at DEMO_TODAY and live five minutes.
    const token = await signIn(d.app, 'alice', DEMO_PASSWORD);
    const url = invoices(d.handlers['101']);
    const links = (body: { included: Resource[] }) =>
      body.included.filter((i) => i.type === 'file--file').map((f) => (f.attributes.uri as { url: string }).url);
    const minute = rollOver(aliceId, start);
    atSecond(minute);
    const first = await api(d.app, token, 'GET', url);
    atSecond(minute + 59);
    const sameMinute = await api(d.app, token, 'GET', url);
    expect(cacheOf(sameMinute)).toBe('HIT');
    atSecond(minute + 60);
    const nextMinute = await api(d.app, token, 'GET', url);
    expect(cacheOf(nextMinute)).toBe('MISS');
    const expires = (u: string) => Number(new URL(u).searchParams.get('expires'));
    expect(links(first.body).length).toBeGreaterThan(0);
    expect(
      links(nextMinute.body)
        .map(expires)
        .every((e) => e === expires(links(first.body)[0]) + 60),
    ).toBe(true);
    // The link served from the cache still downloads.
    const download = await d.app.inject({
      method: 'GET',
      url: links(sameMinute.body)[0].replace(/^https?:\/\/[^/]+/, ''),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    clock.set(DEMO_TODAY);
  });

  it("lets readers' documents go stale at seconds of their own, not all at once", async () => {
    const start = Date.parse('2026-11-22T12:40:00Z') / 1000;
    atSecond(start);
    // Another reader whose minute starts at another second than Alice's (all three sharing hers: 1 in 216,000).
    let other: { name: string; id: string } | undefined;
    for (const name of ['bob', 'carol', 'dave']) {
      const id = await idOf(name);
      if (linkPhase(id) !== linkPhase(aliceId)) {
        other = { name, id };
        break;
      }
    }
    const tokens = {
      alice: await signIn(d.app, 'alice', DEMO_PASSWORD),
      other: await signIn(d.app, other!.name, DEMO_PASSWORD),
    };
    const url = '/jsonapi/node/invoice?include=field_invoice_pdf&page%5Blimit%5D=200';
    const read = async (who: 'alice' | 'other') => cacheOf(await api(d.app, tokens[who], 'GET', url));
    const alicesMinute = rollOver(aliceId, start);
    atSecond(alicesMinute - 1);
    await read('alice');
    await read('other');
    atSecond(alicesMinute);
    expect(await read('alice')).toBe('MISS');
    expect(await read('other')).toBe('HIT');
    const othersMinute = rollOver(other!.id, alicesMinute);
    atSecond(othersMinute);
    expect(await read('other')).toBe('MISS');
    clock.set(DEMO_TODAY);
  });

  it('is off when DOCUMENT_CACHE_MB is 0', async () => {
    const off = await demoApp(target, { config: { documentCacheBytes: 0 } });
    try {
      const r = await api(off.app, off.tokens.alice, 'GET', invoices(off.handlers['101']));
      expect(r.status).toBe(200);
      expect(cacheOf(r)).toBeUndefined();
      expect(cacheOf(await api(off.app, off.tokens.alice, 'GET', invoices(off.handlers['101'])))).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

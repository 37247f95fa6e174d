import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn } from '../test-support/api.js';
import { describeEachDatabase, type fixedClock } from '../test-support/databases.js';
import { DEMO_PASSWORD, demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * API clients (docs/API-CLIENTS.md): managed by a handler's admin users and by staff; the client_credentials grant;
 * a client reads and writes as a service user of its handler only, saves drafts, never certifies; rotation,
 * revocation, last use, throttling and the audit log.
 */
describeEachDatabase('API clients', (target) => {
  let demo: DemoApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeAll(async () => {
    demo = await demoApp(target);
    clock = demo.ctx.clock as ReturnType<typeof fixedClock>;
  });
  afterAll(async () => {
    await demo?.close();
  });

  const json = async (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, body?: unknown) => {
    const res = await demo.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
  };
  const tokenFor = (form: Record<string, string>, basic?: [string, string]) =>
    demo.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(basic ? { authorization: `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}` } : {}),
      },
      payload: new URLSearchParams({ grant_type: 'client_credentials', ...form }).toString(),
    });
  const clientToken = async (id: string, secret: string, scope?: string) => {
    const res = await tokenFor({ client_id: id, client_secret: secret, ...(scope ? { scope } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().access_token as string;
  };
  const create = async (token: string, name: string, scope: string, url = '/api/account/api-clients') => {
    const res = await json('POST', url, token, { name, scope });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.data.id as string, secret: res.body.client_secret as string, body: res.body };
  };
  const draftForm1 = async (token: string) => {
    const packages = await api(
      demo.app,
      token,
      'GET',
      '/jsonapi/node/reporting_forms_package?sort=-field_reporting_period.field_due_date&page[limit]=1&include=field_form_1',
    );
    expect(packages.status).toBe(200);
    return packages.body.data[0].relationships.field_form_1.data.at(-1).id as string;
  };

  let writer: { id: string; secret: string };
  let writerToken: string;

  describe('management', () => {
    it('lets a handler admin create a client whose secret is shown once, and lists it without the secret', async () => {
      const created = await create(demo.tokens.alice, 'ERP nightly export', 'read write');
      writer = created;
      expect(created.id).toMatch(/^pc_[A-Za-z0-9]{20}$/);
      expect(created.secret.length).toBeGreaterThanOrEqual(43);
      expect(created.body.data).toMatchObject({
        name: 'ERP nightly export',
        scope: 'read write',
        status: 'active',
        handler_id: demo.handlers['101'],
        last_used: null,
      });
      const list = await json('GET', '/api/account/api-clients', demo.tokens.alice);
      expect(list.body.admin).toBe(true);
      expect(list.body.data.map((c: { id: string }) => c.id)).toContain(created.id);
      expect(JSON.stringify(list.body)).not.toContain(created.secret);
      // Stored as an Argon2id hash only.
      const row = await demo.ctx.db
        .selectFrom('api_clients')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(String(row.secret_hash)).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(row)).not.toContain(created.secret);
      // Audited, without the hash.
      const entry = await demo.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity_id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ action: 'create', actor_name: 'alice', handler_id: demo.handlers['101'] });
      expect(String(entry.after_values)).not.toContain('argon2');
    });

    it("refuses users without the admin flag, bad input, and other handlers' clients", async () => {
      expect((await json('GET', '/api/account/api-clients', demo.tokens.bob)).body).toEqual({ admin: false, data: [] });
      expect(
        (await json('POST', '/api/account/api-clients', demo.tokens.bob, { name: 'x', scope: 'read' })).status,
      ).toBe(403);
      expect((await json('POST', `/api/account/api-clients/${writer.id}/revoke`, demo.tokens.bob)).status).toBe(403);
      const bad = await json('POST', '/api/account/api-clients', demo.tokens.alice, {
        name: '',
        scope: 'admin',
        extra: 1,
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
        '/extra',
        '/name',
        '/scope',
      ]);
      // Carol (admin of 102) cannot see, rotate or revoke 101's client: 404 as for an unknown one.
      expect(
        (await json('GET', '/api/account/api-clients', demo.tokens.carol)).body.data.map((c: { id: string }) => c.id),
      ).not.toContain(writer.id);
      expect((await json('POST', `/api/account/api-clients/${writer.id}/rotate`, demo.tokens.carol)).status).toBe(404);
      expect((await json('POST', `/api/account/api-clients/${writer.id}/revoke`, demo.tokens.carol)).status).toBe(404);
      // Staff use the council endpoints; a handler user cannot.
      expect((await json('GET', `/api/council/handlers/101/api-clients`, demo.tokens.alice)).status).toBe(403);
    });

    it("lets staff manage any handler's clients and set the admin flag", async () => {
      const made = await create(
        demo.tokens.staff,
        'Mesa reporting bridge',
        'read',
        '/api/council/handlers/102/api-clients',
      );
      expect(made.body.data.handler_id).toBe(demo.handlers['102']);
      const list = await json('GET', `/api/council/handlers/${demo.handlers['101']}/api-clients`, demo.tokens.staff);
      expect(list.body.data.map((c: { id: string }) => c.id)).toContain(writer.id);
      const bob = await demo.ctx.db
        .selectFrom('users')
        .select('id')
        .where('name', '=', 'bob')
        .executeTakeFirstOrThrow();
      const set = await json('PATCH', `/api/council/users/${bob.id}`, demo.tokens.staff, { handler_admin: true });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.data.handler_admin).toBe(true);
      expect((await json('GET', '/api/account/api-clients', demo.tokens.bob)).body.admin).toBe(true);
      expect(
        (await json('PATCH', `/api/council/users/${bob.id}`, demo.tokens.staff, { handler_admin: 'yes' })).status,
      ).toBe(422);
      const unset = await json('PATCH', `/api/council/users/${bob.id}`, demo.tokens.staff, { handler_admin: false });
      expect(unset.body.data.handler_admin).toBe(false);
    });
  });

  describe('the client_credentials grant', () => {
    it("issues an access token with the client's scope and no refresh token, by form or HTTP Basic", async () => {
      const form = await tokenFor({ client_id: writer.id, client_secret: writer.secret });
      expect(form.statusCode, form.body).toBe(200);
      const body = form.json();
      expect(body).toMatchObject({ token_type: 'Bearer', scope: 'read write', expires_in: 900 });
      expect(body).not.toHaveProperty('refresh_token');
      expect(form.headers['cache-control']).toBe('no-store');
      writerToken = body.access_token;
      const basic = await tokenFor({}, [writer.id, writer.secret]);
      expect(basic.statusCode).toBe(200);
      const narrowed = await tokenFor({ client_id: writer.id, client_secret: writer.secret, scope: 'read' });
      expect(narrowed.json().scope).toBe('read');
      const debug = await json('GET', '/oauth/debug', writerToken);
      expect(debug.body).toMatchObject({
        id: writer.id,
        name: 'ERP nightly export',
        roles: ['authenticated', 'api_client'],
        handler_id: demo.handlers['101'],
        scope: 'read write',
      });
    });

    it("refuses a wrong secret, an unknown client, a portal client and a scope beyond the client's", async () => {
      expect((await tokenFor({ client_id: writer.id, client_secret: 'wrong' })).statusCode).toBe(401);
      expect((await tokenFor({ client_id: writer.id })).json().error).toBe('invalid_client');
      const basic = await tokenFor({}, [writer.id, 'wrong']);
      expect(basic.statusCode).toBe(401);
      expect(basic.headers['www-authenticate']).toBe('Basic');
      expect((await tokenFor({ client_id: 'pc_unknownunknownunkn', client_secret: writer.secret })).statusCode).toBe(
        401,
      );
      expect((await tokenFor({ client_id: 'portal-web', client_secret: 'x' })).statusCode).toBe(401);
      const reader = await create(demo.tokens.alice, 'Dashboard reader', 'read');
      expect(
        (await tokenFor({ client_id: reader.id, client_secret: reader.secret, scope: 'read write' })).json().error,
      ).toBe('invalid_scope');
      // A client id is no user: the password grant does not know it.
      const pw = await demo.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'password',
          client_id: writer.id,
          username: 'alice',
          password: DEMO_PASSWORD,
        }).toString(),
      });
      expect(pw.statusCode).toBe(401);
    });
  });

  describe('acting as its handler', () => {
    it("reads its own handler's data and nothing of another handler's", async () => {
      const forms = await api(demo.app, writerToken, 'GET', '/jsonapi/node/apc_form_1?page[limit]=500');
      expect(forms.status).toBe(200);
      const handlers = new Set(
        forms.body.data.map(
          (f: { relationships: { field_handler: { data: { id: string } } } }) => f.relationships.field_handler.data.id,
        ),
      );
      expect([...handlers]).toEqual([demo.handlers['101']]);
      const carolsForm = await draftForm1(demo.tokens.carol);
      // Refused exactly as for a user of handler 101.
      const asAlice = (await api(demo.app, demo.tokens.alice, 'GET', `/jsonapi/node/apc_form_1/${carolsForm}`)).status;
      expect([403, 404]).toContain(asAlice);
      expect((await api(demo.app, writerToken, 'GET', `/jsonapi/node/apc_form_1/${carolsForm}`)).status).toBe(asAlice);
      const other = await api(demo.app, writerToken, 'GET', `/jsonapi/node/handler/${demo.handlers['102']}`);
      expect(JSON.stringify(other.body)).not.toContain('field_handler_number_of');
    });

    it("saves a draft, audited under the client's name, and cannot certify it", async () => {
      const formId = await draftForm1(writerToken);
      const saved = await api(demo.app, writerToken, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
        data: {
          type: 'node--apc_form_1',
          id: formId,
          attributes: { field_receipts_native: 4321 },
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.data.attributes.field_receipts_native).toBe(4321);
      const entry = await demo.ctx.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity_id', '=', formId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({
        action: 'update',
        actor_id: writer.id,
        actor_name: 'ERP nightly export',
        actor_role: 'api_client',
        handler_id: demo.handlers['101'],
      });

      const certify = await api(demo.app, writerToken, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
        data: {
          type: 'node--apc_form_1',
          id: formId,
          attributes: { field_certified: true, field_certification_name: 'A Robot' },
        },
      });
      expect(certify.status).toBe(403);
      expect(certify.body.errors[0].detail).toMatch(/certification is a person's act/);
      const named = await api(demo.app, writerToken, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
        data: {
          type: 'node--apc_form_1',
          id: formId,
          attributes: { field_certification_name: 'A Robot' },
        },
      });
      expect(named.status).toBe(422);
      expect(named.body.errors[0].source.pointer).toBe('/data/attributes/field_certification_name');
      const after = await api(demo.app, demo.tokens.alice, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
      expect(after.body.data.attributes).toMatchObject({ field_form_status: 'draft', field_receipts_native: 4321 });
      expect(after.body.data.attributes.field_certification_name ?? null).not.toBe('A Robot');
    });

    it("cannot write another handler's records, amend, confirm packets, file forms 4, or use the account endpoints", async () => {
      const carolsForm = await draftForm1(demo.tokens.carol);
      const before = await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_1/${carolsForm}`);
      const cross = await api(demo.app, writerToken, 'PATCH', `/jsonapi/node/apc_form_1/${carolsForm}`, {
        data: {
          type: 'node--apc_form_1',
          id: carolsForm,
          attributes: { field_receipts_native: 1 },
        },
      });
      expect([403, 404]).toContain(cross.status);
      expect(
        (await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_1/${carolsForm}`)).body.data.attributes,
      ).toEqual(before.body.data.attributes);
      const seasons = await api(demo.app, writerToken, 'GET', '/jsonapi/node/season?filter[field_current_season]=1');
      const season = seasons.body.data[0]?.id as string;
      const transfer = await api(demo.app, writerToken, 'POST', '/jsonapi/node/apc_form_4', {
        data: {
          type: 'node--apc_form_4',
          attributes: {},
          relationships: {
            field_transferring_handler: { data: { type: 'node--handler', id: demo.handlers['101'] } },
            field_receiving_handler: { data: { type: 'node--handler', id: demo.handlers['102'] } },
            field_season: { data: { type: 'node--season', id: season } },
          },
        },
      });
      expect(transfer.status).toBe(403);
      const confirm = await api(demo.app, writerToken, 'POST', '/jsonapi/node/handler_packet_confirmation', {
        data: {
          type: 'node--handler_packet_confirmation',
          attributes: { field_handler_packet_confirm: true },
          relationships: { field_handler: { data: { type: 'node--handler', id: demo.handlers['101'] } } },
        },
      });
      expect(confirm.status).toBe(403);
      const certified = await api(
        demo.app,
        writerToken,
        'GET',
        '/jsonapi/node/apc_form_1?filter[field_form_status]=certified&page[limit]=1',
      );
      const amendOf = certified.body.data[0].id as string;
      const amend = await api(demo.app, writerToken, 'POST', '/jsonapi/node/apc_form_1', {
        data: {
          type: 'node--apc_form_1',
          attributes: { field_amendment_reason: 'x' },
          relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: amendOf } } },
        },
      });
      expect(amend.status).toBe(403);
      const profile = await api(demo.app, writerToken, 'PATCH', `/jsonapi/user/user/${writer.id}`, {
        data: { type: 'user--user', id: writer.id, attributes: { field_first_name: 'x' } },
      });
      expect([403, 404]).toContain(profile.status);
      expect((await json('GET', '/api/account/sessions', writerToken)).status).toBe(403);
      expect(
        (await json('POST', '/api/account/password', writerToken, { current_password: 'x', new_password: 'y' })).status,
      ).toBe(403);
      expect((await json('GET', '/api/account/api-clients', writerToken)).status).toBe(403);
      expect((await json('GET', '/api/council/users', writerToken)).status).toBe(403);
    });

    it('with scope read, reads but writes nothing', async () => {
      const reader = await create(demo.tokens.alice, 'Read-only mirror', 'read');
      const token = await clientToken(reader.id, reader.secret);
      const formId = await draftForm1(token);
      const write = await api(demo.app, token, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
        data: { type: 'node--apc_form_1', id: formId, attributes: { field_receipts_native: 7 } },
      });
      expect(write.status).toBe(403);
      expect(write.body.errors[0].detail).toMatch(/scope is "read"/);
      // A read-write client's token asked with scope read is read-only too.
      const narrowed = await clientToken(writer.id, writer.secret, 'read');
      expect(
        (
          await api(demo.app, narrowed, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
            data: { type: 'node--apc_form_1', id: formId, attributes: { field_receipts_native: 7 } },
          })
        ).status,
      ).toBe(403);
    });

    it('is throttled per client: 429 with Retry-After as a JSON:API error, other clients unaffected', async () => {
      const limits = demo.ctx.config.apiClients;
      const saved = limits.perMinute;
      const busy = await create(demo.tokens.alice, 'Busy poller', 'read');
      const busyToken = await clientToken(busy.id, busy.secret);
      limits.perMinute = 5;
      try {
        for (let i = 0; i < 5; i += 1)
          expect((await api(demo.app, busyToken, 'GET', '/jsonapi/node/season')).status).toBe(200);
        const refused = await api(demo.app, busyToken, 'GET', '/jsonapi/node/season');
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(refused.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
        expect(refused.body.errors[0].status).toBe('429');
        expect((await api(demo.app, demo.tokens.alice, 'GET', '/jsonapi/node/season')).status).toBe(200);
        clock.advance(60);
        expect((await api(demo.app, busyToken, 'GET', '/jsonapi/node/season')).status).toBe(200);
      } finally {
        limits.perMinute = saved;
      }
    });
  });

  describe('last use, rotation and revocation', () => {
    it('records the last use at most once a minute', async () => {
      const c = await create(demo.tokens.carol, 'Last-use probe', 'read');
      const token = await clientToken(c.id, c.secret);
      const lastUsed = async () =>
        (
          await demo.ctx.db
            .selectFrom('api_clients')
            .select('last_used')
            .where('id', '=', c.id)
            .executeTakeFirstOrThrow()
        ).last_used;
      const issued = await lastUsed();
      expect(issued).not.toBeNull();
      clock.advance(30);
      await api(demo.app, token, 'GET', '/jsonapi/node/season');
      expect(await lastUsed()).toBe(issued);
      clock.advance(31);
      await api(demo.app, token, 'GET', '/jsonapi/node/season');
      expect(await lastUsed()).not.toBe(issued);
    });

    it('rotates: the new secret works at once, the old one through the overlap, then stops', async () => {
      const carol = await signIn(demo.app, 'carol', DEMO_PASSWORD);
      const c = await create(carol, 'Rotating system', 'read');
      const rotated = await json('POST', `/api/account/api-clients/${c.id}/rotate`, carol);
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.client_secret as string;
      expect(fresh).not.toBe(c.secret);
      expect(rotated.body.data.previous_secret_expires_at).not.toBeNull();
      expect((await tokenFor({ client_id: c.id, client_secret: fresh })).statusCode).toBe(200);
      expect((await tokenFor({ client_id: c.id, client_secret: c.secret })).statusCode).toBe(200);
      clock.advance(23 * 3600);
      expect((await tokenFor({ client_id: c.id, client_secret: c.secret })).statusCode).toBe(200);
      clock.advance(3601);
      expect((await tokenFor({ client_id: c.id, client_secret: c.secret })).statusCode).toBe(401);
      expect((await tokenFor({ client_id: c.id, client_secret: fresh })).statusCode).toBe(200);
      const carolAgain = await signIn(demo.app, 'carol', DEMO_PASSWORD);
      const listed = (await json('GET', '/api/account/api-clients', carolAgain)).body.data.find(
        (x: { id: string }) => x.id === c.id,
      );
      expect(listed.previous_secret_expires_at).toBeNull();
      const entry = await demo.ctx.db
        .selectFrom('audit_log')
        .select('action')
        .where('entity_id', '=', c.id)
        .where('action', '=', 'rotate_secret')
        .executeTakeFirst();
      expect(entry).toBeDefined();
    });

    it('revokes: its tokens stop at once and it gets no new one', async () => {
      const alice = await signIn(demo.app, 'alice', DEMO_PASSWORD);
      const c = await create(alice, 'Short-lived', 'read write');
      const token = await clientToken(c.id, c.secret);
      expect((await api(demo.app, token, 'GET', '/jsonapi/node/season')).status).toBe(200);
      const revoked = await json('POST', `/api/account/api-clients/${c.id}/revoke`, alice);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.status).toBe('revoked');
      expect((await api(demo.app, token, 'GET', '/jsonapi/node/season')).status).toBe(401);
      expect((await tokenFor({ client_id: c.id, client_secret: c.secret })).statusCode).toBe(401);
      expect((await json('POST', `/api/account/api-clients/${c.id}/rotate`, alice)).status).toBe(409);
    });
  });
});

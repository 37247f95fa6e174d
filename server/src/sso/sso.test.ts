import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.js';
import { buildApp } from '../app.js';
import { json, PASSWORD, passwordSignIn, PUBLIC_URL, seedAccounts } from '../test-support/accounts-fixture.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { forgetProviders } from './provider.js';
import { NO_ACCOUNT, STAFF_USE_PASSWORD } from './routes.js';

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on a loopback port: the test plays the browser,
 * going through the provider's (development) login and consent pages to get a code, then hands the code and the
 * PKCE verifier to POST /api/sso/callback as the web app does.
 */
const CLIENT_ID = 'handler-portal';
const CLIENT_SECRET = 'a-client-secret-that-is-long-enough-0123456789';
const REDIRECT_URI = `${PUBLIC_URL}/auth0loginCallback`;

/** The provider's people, by login name. */
const ACCOUNTS: Record<string, { email: string; email_verified?: boolean }> = {
  alice: { email: 'alice@example.com', email_verified: true },
  shouting: { email: 'ALICE@Example.COM', email_verified: true },
  stranger: { email: 'stranger@example.com', email_verified: true },
  unverified: { email: 'bob@example.com', email_verified: false },
  pending: { email: 'pat@example.com' },
  council: { email: 'staff@example.com', email_verified: true },
};

interface OidcServer {
  issuer: string;
  close(): Promise<void>;
}

async function startProvider(): Promise<OidcServer> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = ACCOUNTS[id];
      return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [jwk] },
    features: { devInteractions: { enabled: true } },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
  });
  handler = provider.callback();
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const base64url = (b: Buffer) => b.toString('base64url');

/** The browser's half: PKCE verifier and state, the authorization request, login and consent; answers the code. */
async function authorize(issuer: string, login: string, verifier: string, state: string): Promise<string> {
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const start = new URL(`${issuer}/auth`);
  for (const [k, v] of Object.entries({
    client_id: CLIENT_ID,
    response_type: 'code',
    scope: 'openid profile email',
    redirect_uri: REDIRECT_URI,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    start.searchParams.set(k, v);

  const jar = new Map<string, string>();
  const request = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };

  let location = start.toString();
  for (let step = 0; step < 12; step += 1) {
    if (location.startsWith(REDIRECT_URI)) {
      const back = new URL(location);
      expect(back.searchParams.get('state')).toBe(state);
      const code = back.searchParams.get('code');
      if (!code) throw new Error(`the provider answered ${location}`);
      return code;
    }
    const url = new URL(location, issuer).toString();
    if (/\/interaction\/[^/]+$/.test(new URL(url).pathname)) {
      const page = await (await request(url)).text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (!prompt) throw new Error(`no prompt on the interaction page: ${page.slice(0, 500)}`);
      const form = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login, password: 'anything' } : {}) });
      const submitted = await request(url, {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      location = submitted.headers.get('location') ?? '';
    } else {
      const response = await request(url);
      location = response.headers.get('location') ?? '';
      if (!location)
        throw new Error(`no redirect from ${url}: ${response.status} ${(await response.text()).slice(0, 300)}`);
    }
  }
  throw new Error('too many redirects');
}

const newVerifier = () => base64url(randomBytes(32));
/** Now, to the second (the portal stores times to the second). */
const nowToSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();

describeEachDatabase('single sign-on (OpenID Connect)', (target) => {
  let oidc: OidcServer;
  let ctx: TestContext;
  let app: FastifyInstance;
  let users: Record<string, string>;
  const clock = fixedClock(nowToSecond());
  const callback = (body: unknown) => json(app, 'POST', '/api/sso/callback', { body });
  /** A full round: authorization at the provider as `login`, then the portal's callback. */
  const signOn = async (login: string, tamper: (b: Record<string, string>) => Record<string, string> = (b) => b) => {
    const verifier = newVerifier();
    const state = base64url(randomBytes(16));
    const code = await authorize(oidc.issuer, login, verifier, state);
    return callback(tamper({ code, state, code_verifier: verifier, redirect_uri: REDIRECT_URI }));
  };

  beforeAll(async () => {
    oidc = await startProvider();
    forgetProviders();
    ctx = await createTestContext(target, {
      clock,
      config: {
        publicUrl: PUBLIC_URL,
        oidc: { issuer: oidc.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, label: 'Council SSO' },
      },
    });
    ({ users } = await seedAccounts(ctx));
    await ctx.db
      .insertInto('users')
      .values({
        id: 'pat-id',
        title: '',
        created: '2026-01-01T00:00:00+00:00',
        changed: '2026-01-01T00:00:00+00:00',
        name: 'pat',
        mail: 'pat@example.com',
        pass_hash: null,
        role: 'handler',
        status: 'pending',
        first_name: 'Pat',
        last_name: '',
        show_in_directory: ctx.dialect === 'sqlite' ? 0 : false,
      })
      .execute();
    app = await buildApp(ctx, { logger: false });
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
    await oidc?.close();
  });

  it('publishes the provider from its discovery document', async () => {
    const r = await json(app, 'GET', '/api/sso/config');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      enabled: true,
      label: 'Council SSO',
      authorizeUrl: `${oidc.issuer}/auth`,
      clientId: CLIENT_ID,
      scope: 'openid profile email',
      redirectUri: REDIRECT_URI,
    });
  });

  it('signs in the active user with the e-mail address, answering like POST /oauth/token', async () => {
    const r = await signOn('alice');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const password = (await passwordSignIn(app, 'alice', PASSWORD)).json();
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(password).sort());
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: ctx.config.accessTokenTtl });
    const debug = await app.inject({
      method: 'GET',
      url: '/oauth/debug?_format=json',
      headers: { authorization: `Bearer ${r.body.access_token}` },
    });
    expect(debug.statusCode).toBe(200);
    expect(debug.json()).toMatchObject({ id: users.alice, name: 'alice' });
    // The refresh token works at the token endpoint like any other.
    const refreshed = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'portal-web',
        refresh_token: r.body.refresh_token,
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);

    // The address matches whatever its case.
    const shouting = await signOn('shouting');
    expect(shouting.status).toBe(200);
  });

  it('refuses an address without an account (403), unverified and pending ones, and creates no account', async () => {
    const before = await ctx.db.selectFrom('users').select('id').execute();
    const stranger = await signOn('stranger');
    expect(stranger.status).toBe(403);
    expect(stranger.body.errors[0].detail).toBe(NO_ACCOUNT);
    const unverified = await signOn('unverified');
    expect(unverified.status).toBe(403);
    expect(unverified.body.errors[0].detail).toContain('has not verified');
    const pending = await signOn('pending');
    expect(pending.status).toBe(403);
    expect(pending.body.errors[0].detail).toContain('waiting for the council');
    expect((await ctx.db.selectFrom('users').select('id').execute()).length).toBe(before.length);
  });

  it('refuses council staff, who sign in with password and authenticator code instead, and starts no session', async () => {
    const sessions = async () =>
      (await ctx.db.selectFrom('oauth_token_families').select('id').where('user_id', '=', users.staff).execute())
        .length;
    const before = await sessions();
    const staff = await signOn('council');
    expect(staff.status).toBe(403);
    expect(staff.body.errors[0].detail).toBe(STAFF_USE_PASSWORD);
    expect(await sessions()).toBe(before);
  });

  it('fails with a wrong verifier, a replayed code, a foreign redirect uri or missing fields', async () => {
    const wrongVerifier = await signOn('alice', (b) => ({ ...b, code_verifier: newVerifier() }));
    expect(wrongVerifier.status).toBe(400);
    expect(wrongVerifier.body.errors[0].detail).toContain('refused the code');

    const verifier = newVerifier();
    const state = 'some-state';
    const code = await authorize(oidc.issuer, 'alice', verifier, state);
    const body = { code, state, code_verifier: verifier, redirect_uri: REDIRECT_URI };
    expect((await callback(body)).status).toBe(200);
    expect((await callback(body)).status).toBe(400); // a code works once

    const foreign = await callback({ ...body, redirect_uri: 'https://evil.example/auth0loginCallback' });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].source.pointer).toBe('/data/attributes/redirect_uri');
    const missing = await callback({ code: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
      '/data/attributes/code_verifier',
      '/data/attributes/state',
    ]);
    const tamperedCode = await callback({ ...body, code: `${code}x` });
    expect(tamperedCode.status).toBe(400);
  });

  it("checks the ID token's expiry against the server clock", async () => {
    clock.advance(2 * 3600);
    try {
      const late = await signOn('alice');
      expect(late.status).toBe(400);
      expect(late.body.errors[0].detail).toContain('could not be verified');
    } finally {
      clock.set(nowToSecond());
    }
  });

  it('is off without OIDC_ISSUER, and answers 503 when the provider cannot be reached', async () => {
    const saved = ctx.config.oidc;
    try {
      ctx.config.oidc = undefined;
      expect((await json(app, 'GET', '/api/sso/config')).body).toEqual({ enabled: false });
      expect((await callback({ code: 'x', state: 'y', code_verifier: newVerifier() })).status).toBe(404);
      ctx.config.oidc = { ...(saved as NonNullable<typeof saved>), issuer: 'http://127.0.0.1:1' };
      expect((await json(app, 'GET', '/api/sso/config')).status).toBe(503);
    } finally {
      ctx.config.oidc = saved;
    }
  });
});

describe('single sign-on configuration', () => {
  it('needs the client id and secret once OIDC_ISSUER is set, and an http(s) issuer', () => {
    const env = { NODE_ENV: 'test', OIDC_ISSUER: 'https://login.example.org/' };
    expect(() => loadConfig(env)).toThrow(/OIDC_CLIENT_ID: required when OIDC_ISSUER is set/);
    expect(() => loadConfig({ ...env, OIDC_CLIENT_ID: 'portal' })).toThrow(/OIDC_CLIENT_SECRET/);
    expect(() => loadConfig({ ...env, OIDC_ISSUER: 'ftp://login.example.org' })).toThrow(ConfigError);
    expect(loadConfig({ ...env, OIDC_CLIENT_ID: 'portal', OIDC_CLIENT_SECRET: 's' }).oidc).toEqual({
      issuer: 'https://login.example.org/',
      clientId: 'portal',
      clientSecret: 's',
      label: 'Single sign-on',
      audience: undefined,
    });
    expect(loadConfig({ NODE_ENV: 'test' }).oidc).toBeUndefined();
  });
});

import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../context.js';
import { stepAt, TOTP_PERIOD, TOTP_WINDOW, totpCode } from '../oauth/mfa.js';

/** Signs in through /oauth/token; answers the whole response. */
export async function passwordSignIn(app: FastifyInstance, username: string, password: string, totp?: string) {
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'password',
      client_id: 'portal-web',
      username,
      password,
      ...(totp ? { totp } : {}),
    }).toString(),
  });
}

/**
 * Signs in through the real token endpoint and returns the access token. Staff need their authenticator code as
 * `totp`: get it from `staffCode`.
 */
export async function signIn(app: FastifyInstance, username: string, password: string, totp?: string): Promise<string> {
  const response = await passwordSignIn(app, username, password, totp);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token as string;
}

export interface ApiResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever each answer holds
  body: any;
  /** The body as sent (CSV answers are read from here). */
  text: string;
  headers: Record<string, unknown>;
}

async function request(
  app: FastifyInstance,
  mediaType: string,
  token: string | null,
  method: string,
  url: string,
  body?: unknown,
): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: mediaType };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = mediaType;
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers,
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  let parsed: unknown = null;
  try {
    parsed = response.body ? JSON.parse(response.body) : null;
  } catch {
    parsed = response.body;
  }
  return { status: response.statusCode, body: parsed, text: response.body, headers: response.headers };
}

/** A JSON:API request as the web app makes it. */
export const api = (app: FastifyInstance, token: string | null, method: string, url: string, body?: unknown) =>
  request(app, 'application/vnd.api+json', token, method, url, body);

/** A plain JSON request, as the council console sends them. */
export const councilCall = (app: FastifyInstance, token: string | null, method: string, url: string, body?: unknown) =>
  request(app, 'application/json', token, method, url, body);

/** The ids of a collection document's data. */
export const ids = (body: { data: Array<{ id: string }> }) => body.data.map((d) => d.id);

/**
 * The next code an enrolled user's authenticator would give that the server still accepts at the context's clock:
 * a step inside the window (one either side of now) after the last step used. Tests on a fixed clock can sign the
 * same staff user in three times per step; after that, advance the clock.
 */
export async function staffCode(ctx: AppContext, username = 'staff'): Promise<string> {
  const row = await ctx.db
    .selectFrom('user_totp as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.secret', 't.last_step'])
    .where('u.name', '=', username)
    .executeTakeFirstOrThrow();
  const now = ctx.clock.now();
  const step = Math.max(Number(row.last_step) + 1, stepAt(now) - TOTP_WINDOW);
  if (step > stepAt(now) + TOTP_WINDOW)
    throw new Error(`Every code of ${username} near the test clock was used: advance the clock.`);
  return totpCode(row.secret as string, new Date(step * TOTP_PERIOD * 1000));
}

import type { FastifyInstance } from 'fastify';
import type { AppContext, Viewer } from '../context.js';
import { DEMO_STAFF_TOTP_SECRET } from '../demo/data.js';
import { ensureOAuthClients } from '../oauth/clients.js';
import { enrolWithSecret } from '../oauth/mfa.js';
import { createHandler, createUser } from '../workflows/accounts.js';
export { passwordSignIn } from './api.js';

/**
 * For tests only (never imported by the server): handlers 101 and 102 (active) and 104 (inactive), users alice and
 * bob (handler 101), carol (handler 102) and staff, all with PASSWORD and mail <username>@example.com, as in the
 * demo data set; staff enrolled in the second factor with the demo key (sign in with test-support's staffCode).
 */
export const PASSWORD = 'demo-pecans-2026';
export const PUBLIC_URL = 'http://portal.test';

export async function seedAccounts(
  ctx: AppContext,
): Promise<{ handlers: Record<string, string>; users: Record<string, string> }> {
  await ensureOAuthClients(ctx.db, ctx.clock);
  const system: Viewer = { userId: 'system', name: 'system', role: 'staff', handlerId: null };
  const a = { ctx, viewer: system };
  const handlers: Record<string, string> = {};
  for (const [number, name] of [
    ['101', 'Riverbend Pecan Co.'],
    ['102', 'Mesa Valley Pecans'],
    ['104', 'Closed Pecans'],
  ]) {
    handlers[number] = await createHandler(a, { number, name });
  }
  await ctx.db.updateTable('handlers').set({ handler_status: 'inactive' }).where('id', '=', handlers['104']).execute();
  const users: Record<string, string> = {};
  for (const [username, handler] of [
    ['alice', '101'],
    ['bob', '101'],
    ['carol', '102'],
    ['staff', null],
  ] as const) {
    users[username] = await createUser(a, {
      username,
      password: PASSWORD,
      firstName: username[0].toUpperCase() + username.slice(1),
      lastName: 'Example',
      mail: `${username}@example.com`,
      role: handler ? 'handler' : 'staff',
      handlerNumber: handler,
    });
  }
  await enrolWithSecret(ctx.db, users.staff, DEMO_STAFF_TOTP_SECRET, ctx.clock.now());
  return { handlers, users };
}

/** A plain JSON request as the web app's postJson/getJson make it. */
export async function json(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  options: { body?: unknown; token?: string; ip?: string } = {},
) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? '127.0.0.1',
    payload: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever each answer holds
  const body: any = response.body ? JSON.parse(response.body) : null;
  return { status: response.statusCode, body, headers: response.headers };
}

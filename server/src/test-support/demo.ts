import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { buildApp } from '../app.js';
import { loadDemoDataIfEmpty } from '../demo/load.js';
import { ensureOAuthClients } from '../oauth/clients.js';
import { signIn, staffCode } from './api.js';
import { createTestContext, fixedClock, type TestContext, type TestDatabase } from './databases.js';

/** The day the demo data set is built for in tests, so figures and statuses are the same every run. */
export const DEMO_TODAY = '2026-11-22T12:00:00Z';
export const DEMO_PASSWORD = 'demo-pecans-2026';

export interface DemoApp {
  ctx: TestContext;
  app: FastifyInstance;
  /** Access tokens of the demo users, signed in through /oauth/token. */
  tokens: Record<'alice' | 'bob' | 'carol' | 'dave' | 'staff', string>;
  /** Ids of the demo handlers by number. */
  handlers: Record<'101' | '102' | '103', string>;
  close(): Promise<void>;
}

/**
 * The demo database on SQLite is loaded once per test process and copied for each test from its bytes: every
 * test still gets a database of its own, without paying for the demo load again.
 */
let sqliteDemoImage: Buffer | undefined;

/** A fresh database with the demo data set, the app on it (API only), and every demo user signed in. */
export async function demoApp(
  target: TestDatabase,
  options: { clock?: ReturnType<typeof fixedClock>; config?: Partial<Config> } = {},
): Promise<DemoApp> {
  const clock = options.clock ?? fixedClock(DEMO_TODAY);
  const reuse = target.dialect === 'sqlite' && !options.clock && sqliteDemoImage !== undefined;
  const ctx = await createTestContext(target, {
    clock,
    config: { webDist: '/nonexistent', ...options.config },
    sqliteImage: reuse ? sqliteDemoImage : undefined,
  });
  if (!reuse) {
    await ensureOAuthClients(ctx.db, clock);
    await loadDemoDataIfEmpty(ctx);
    if (target.dialect === 'sqlite' && !options.clock) sqliteDemoImage = ctx.serialize?.();
  }
  const app = await buildApp(ctx, { logger: false });
  const tokens = {} as DemoApp['tokens'];
  for (const name of ['alice', 'bob', 'carol', 'dave'] as const) tokens[name] = await signIn(app, name, DEMO_PASSWORD);
  // Staff sign in with their authenticator code too (the demo staff user is enrolled with a known key).
  tokens.staff = await signIn(app, 'staff', DEMO_PASSWORD, await staffCode(ctx));
  const rows = await ctx.db.selectFrom('handlers').select(['id', 'handler_number']).execute();
  const handlers = Object.fromEntries(rows.map((r) => [r.handler_number, r.id])) as DemoApp['handlers'];
  return {
    ctx,
    app,
    tokens,
    handlers,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}

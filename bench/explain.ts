/**
 * `npx tsx bench/explain.ts sqlite:bench/data/bench-100-2.sqlite ""
 * [invoices|nextPackage|packagesSeason|handlerDirectory|handlerSearch|industryAnalytics]`
 *
 * Runs the dashboard's heaviest reads in-process (Fastify inject, as bench-1001) on a copy of a SQLite data set,
 * logs every SQL statement they run and prints SQLite's EXPLAIN QUERY PLAN for each (every `?` bound to the
 * handler's id, which is enough to see which index a statement uses). With a postgres:// URL and a schema it only
 * logs the statements (paste them into psql's EXPLAIN ANALYZE). Findings: decision 0007.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../server/src/config/config.js';
import { fold, SQLITE_FOLD_FUNCTION } from '../server/src/jsonapi/fold.js';
import { startPortal } from '../server/src/server.js';
import { industryAnalyticsParams } from '../web/src/features/analytics/api/analytics-params.js';
import { buildUrl } from '../web/src/lib/jsonapi/client.js';
import { handlerDirectoryParams } from '../web/src/lib/portal/directory-params.js';
import { userByNameParams } from '../web/src/lib/portal/handler-params.js';
import { invoicesParams } from '../web/src/lib/portal/invoice-params.js';
import { nextPackageParams, seasonPackagesParams } from '../web/src/lib/portal/package-params.js';
import { seasonsParams } from '../web/src/lib/portal/season-params.js';
import { BENCH_PASSWORD } from './lib.js';

const [target, schema] = process.argv.slice(2);
const logged: string[] = [];
let url = target;
if (target.startsWith('sqlite:')) {
  // A copy: signing in writes a token.
  const copy = join(mkdtempSync(join(tmpdir(), 'explain-')), 'explain.sqlite');
  copyFileSync(target.slice(7), copy);
  url = `sqlite:${copy}`;
  const orig = SQLite.prototype.prepare;
  SQLite.prototype.prepare = function (this: SQLite.Database, sql: string) {
    logged.push(sql);
    return orig.call(this, sql);
  } as typeof orig;
} else {
  const orig = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0];
    logged.push(typeof q === 'string' ? q : (q as { text: string }).text);
    return (orig as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof orig;
}
const portal = await startPortal(
  loadConfig({
    DATABASE_URL: url,
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    LOG_LEVEL: 'silent',
    PORTAL_DEMO_DATA: '0',
    REMINDER_INTERVAL_SECONDS: '0',
  }),
);
const app = portal.app;
const tok = await app.inject({
  method: 'POST',
  url: '/oauth/token',
  payload: new URLSearchParams({
    grant_type: 'password',
    client_id: 'portal-web',
    username: 'bench-1001',
    password: BENCH_PASSWORD,
  }).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const token = tok.json().access_token as string;
const auth = { authorization: `Bearer ${token}` };
const me = await app.inject({ url: buildUrl('/jsonapi/user/user', userByNameParams('bench-1001')), headers: auth });
const handlerId = me.json().data[0].relationships.field_user_handler_company.data.id as string;
const seasons = await app.inject({ url: buildUrl('/jsonapi/node/season', seasonsParams()), headers: auth });
const seasonId = seasons.json().data[0].id as string;
// The reads as the web app sends them (the same query builders).
const reads: Record<string, string> = {
  invoices: buildUrl('/jsonapi/node/invoice', invoicesParams(handlerId)),
  // Before any date: the newest package (the plan is the same for any date).
  nextPackage: buildUrl('/jsonapi/node/reporting_forms_package', nextPackageParams(handlerId, '9999-12-31')),
  packagesSeason: buildUrl('/jsonapi/node/reporting_forms_package', seasonPackagesParams(handlerId, seasonId)),
  handlerDirectory: buildUrl('/jsonapi/node/handler', handlerDirectoryParams()),
  handlerSearch: buildUrl('/jsonapi/node/handler', handlerDirectoryParams('pecan')),
  industryAnalytics: buildUrl('/jsonapi/node/industry_analytics', industryAnalyticsParams()),
};
const filter = process.argv[4];
for (const [name, path] of Object.entries(reads)) {
  if (filter && name !== filter) continue;
  logged.length = 0;
  const res = await app.inject({ url: path, headers: auth });
  console.log(
    `\n=== ${name}: ${res.statusCode}, ${res.json().data?.length} rows, ${(res.json().included ?? []).length} included, ${logged.length} statements`,
  );
  for (const sql of logged.splice(0)) {
    console.log(
      `\n--- ${sql
        .replace(/\s+/g, ' ')
        .replace(/select .*? from/, 'select … from')
        .slice(0, 900)}`,
    );
    try {
      if (target.startsWith('sqlite:')) {
        const db = new SQLite(url.slice(7), { readonly: true });
        db.function(SQLITE_FOLD_FUNCTION, { deterministic: true }, (v: unknown) =>
          typeof v === 'string' ? fold(v) : v,
        );
        const n = (sql.match(/\?/g) ?? []).length;
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(n).fill(handlerId)) as { detail: string }[];
        console.log(plan.map((p) => `    ${p.detail}`).join('\n'));
        db.close();
      }
    } catch (e) {
      console.log('   (no plan)', (e as Error).message);
    }
  }
}
await portal.close();

/**
 * `npx tsx bench/board-timing.ts sqlite:bench/data/bench-1000-2.sqlite [month] [calls]`; on PostgreSQL
 * `PG_SCHEMA=bench_1000_2 npx tsx bench/board-timing.ts postgres://... [month] [calls]`.
 *
 * Times the submissions board (`buildBoard`) in-process on a data set: 10 warm-up calls, then `calls` (50) timed,
 * for the month given (default the latest filed month), and prints min / p50 / p90 / max in ms. Migrates the data set
 * first. PORTAL_MECHANISMS_OFF=stale-kept times the board that runs the stale check at every call.
 */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/src/config/config.js';
import type { AppContext } from '../server/src/context.js';
import { buildBoard } from '../server/src/council/board.js';
import { migrateToLatest, openDatabase } from '../server/src/db/database.js';
import { loadFileLinkSecret } from '../server/src/files/signing.js';
import { systemClock } from '../server/src/lib/time.js';

const [url, monthArg, callsArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 50);
const database = openDatabase({ url, pgSchema: process.env.PG_SCHEMA });
// A data set made before the latest migration (the board reads what migration 016 keeps) is brought up to date.
await migrateToLatest(database.db, process.env.PG_SCHEMA);
const ctx: AppContext = {
  config: loadConfig({ ...process.env, DATABASE_URL: url, PORTAL_DEMO_DATA: '0' }),
  db: database.db,
  dialect: database.dialect,
  clock: systemClock,
  fileLinkSecret: await loadFileLinkSecret(database.db),
};
const periods = await database.db
  .selectFrom('reporting_periods' as never)
  .select(['id', 'period_month'] as never)
  .orderBy('period_month' as never, 'desc')
  .execute();
const period = (periods as Array<{ id: string; period_month: string }>).find((p) =>
  monthArg ? p.period_month === monthArg : true,
)!;
const board = () => buildBoard(ctx, { value: { period_id: period.id }, problems: [] });
for (let i = 0; i < 10; i++) await board();
const ms: number[] = [];
for (let i = 0; i < calls; i++) {
  const t = performance.now();
  await board();
  ms.push(performance.now() - t);
}
ms.sort((a, b) => a - b);
const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
console.log(`${period.period_month}: min ${at(0)} p50 ${at(0.5)} p90 ${at(0.9)} max ${at(1)} ms (${calls} calls)`);
await database.close();

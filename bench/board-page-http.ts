/**
 * `npx tsx bench/board-page-http.ts bench/data/bench-1000-2.sqlite [port] [calls]`
 *
 * The submissions board through HTTP on a copy of a data set, as a browser gets it (brotli): the whole board (what
 * the page polled before it was paged, and what the CSV button's rows are) against the page's first page
 * (web/src/features/council-ops/api/board-params.ts). Prints bytes on the wire, bytes of JSON, and curl's total time
 * (min / p50 / p90 / max of `calls`, after 5 warm-up calls) for each. Starts the built server (npm run build first)
 * on the latest month; signs in the deadline benchmark's staff user (bench/deadline/fixture.ts enrols it).
 */
import { execFileSync } from 'node:child_process';
import { openDatabase } from '../server/src/db/database.js';
import { boardPageParams } from '../web/src/features/council-ops/api/board-params.js';
import { enrolStaff, signInStaff } from './deadline/fixture.js';
import { startServer, stopServer, type DataTarget } from './server-process.js';

const [file, portArg, callsArg] = process.argv.slice(2);
const port = Number(portArg ?? 3431);
const calls = Number(callsArg ?? 30);
const target: DataTarget = { dialect: 'sqlite', url: `sqlite:${file}`, workers: 1 };
const STAFF = 'bench-staff';
const secret = (await enrolStaff(target, STAFF)) || 'BENCHSTAFFDEADLINEKEY234567ABCDE';

const database = openDatabase({ url: target.url });
const period = await database.db
  .selectFrom('reporting_periods' as never)
  .select(['id', 'period_month'] as never)
  .orderBy('period_month' as never, 'desc')
  .executeTakeFirstOrThrow();
await database.close();
const { id: periodId, period_month: month } = period as { id: string; period_month: string };

const server = await startServer(target, port);
try {
  const token = await signInStaff(port, STAFF, secret);
  const curl = (path: string, encoding: string) =>
    execFileSync('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_download} %{time_total}',
      '-H',
      `authorization: Bearer ${token}`,
      '-H',
      `accept-encoding: ${encoding}`,
      `http://127.0.0.1:${port}${path}`,
    ])
      .toString()
      .split(' ');
  const page = new URLSearchParams(
    Object.entries(boardPageParams({ periodId })).filter((e): e is [string, string] => !!e[1]),
  );
  for (const [name, path] of [
    ['whole board', `/api/council/board?period_id=${periodId}`],
    ['first page', `/api/council/board?${page.toString()}`],
  ]) {
    const [status, json] = curl(path, 'identity');
    for (let i = 0; i < 5; i += 1) curl(path, 'br');
    const ms: number[] = [];
    let wire = 0;
    for (let i = 0; i < calls; i += 1) {
      const [, size, seconds] = curl(path, 'br');
      wire = Number(size);
      ms.push(Number(seconds) * 1000);
    }
    ms.sort((a, b) => a - b);
    const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
    console.log(
      `${month} ${name} (${status}): ${json} B JSON, ${wire} B brotli; ` +
        `min ${at(0)} p50 ${at(0.5)} p90 ${at(0.9)} max ${at(1)} ms (${calls} calls)`,
    );
  }
} finally {
  await stopServer(server);
}

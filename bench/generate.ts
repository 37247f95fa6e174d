/**
 * `npm run bench:data -- --handlers N --seasons S [--database URL] [--schema NAME] [--force] [--concurrency C]`
 *
 * Writes a realistic data set through the same code paths as real filings: handlers and users (createHandler,
 * createUser with Argon2id hashes), seasons, openPeriod per month, then per handler and month forms 1, 2 and 3 edited
 * and certified as JSON:API documents (decodeWrite + the type's write handler: validation, computed fields, the
 * PDF of every certified version, the invoice of form 1), import and export sub-records, amendments, transfer
 * agreements (form 4), year-end forms (form 5), packet confirmations, paid invoices, position reports and analytics.
 * The current month is opened but not filed: its drafts are what the benchmark edits and certifies.
 *
 * SQLite by default (bench/data/bench-N-S.sqlite); PostgreSQL with --database postgres://... into schema
 * --schema (default bench_N_S), made fresh with --force.
 *
 * One process, one write transaction a month. Within a month several handlers file at once (--concurrency, default
 * 4): the PDFs render on worker threads (render/pdf-threads.ts) while the next filing is validated and written, on
 * SQLite's one writer. A form 1 certification also settles the invoice of the handler it ships to, so those receivers
 * file first, one at a time; every other filing touches only its own handler's rows. What several at once write is
 * what one at a time writes (generate.test.ts). See docs/PERFORMANCE.md, "Running the benchmarks".
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import pMap from 'p-map';
import pg from 'pg';
import { addMonths, monthOf, seasonOf, seasonStartYear } from '@pecan/contract';
import { loadConfig } from '../server/src/config/config.js';
import type { AppContext, Viewer } from '../server/src/context.js';
import { migrateToLatest, openDatabase } from '../server/src/db/database.js';
import {
  at,
  fileMonth,
  fileYearEnd,
  LOADER,
  payOldInvoices,
  receivingHandlers,
  type FilingProfile,
} from '../server/src/demo/filings.js';
import { link, patch, post } from '../server/src/demo/requests.js';
import { DEMO_VARIETIES } from '../server/src/demo/data.js';
import { loadFileLinkSecret } from '../server/src/files/signing.js';
import { PDF_THREADS, PdfThreads } from '../server/src/render/pdf-threads.js';
import { isoTimestamp, systemClock } from '../server/src/lib/time.js';
import { ensureOAuthClients } from '../server/src/oauth/clients.js';
import { createHandler, createUser } from '../server/src/workflows/accounts.js';
import { insertNode, type Actor } from '../server/src/workflows/common.js';
import {
  generateAllHandlerAnalytics,
  generateAnnualPositionReport,
  generateIndustryAnalytics,
  generateMonthlyPositionReport,
  publishMonthlyPositionReport,
} from '../server/src/workflows/reports/index.js';
import { ensureSeason, openPeriod, setCurrentSeason } from '../server/src/workflows/seasons.js';
import { benchHandlers, BENCH_PASSWORD, parseArgs, Progress, seededRandom, type BenchHandler } from './lib.js';

/** Larger data sets: fewer months with trade abroad but more rows, and now and then a later amendment of form 1. */
const BENCH_PROFILE: FilingProfile = {
  importChance: 0.3,
  maxImports: 3,
  importCountries: ['MX', 'ZA'],
  exportChance: 0.3,
  exportMarkets: ['CN', 'VN', 'CA', 'NL', 'MX', 'IN', 'DE', 'KR'],
  amendChance: 0.04,
};

export interface Options {
  handlers: number;
  seasons: number;
  database: string;
  schema?: string;
  force: boolean;
  /** Handlers filing at once within a month. */
  concurrency: number;
}

/** A wrong argument or a target that exists: its message says all, so it is printed without a stack. */
class UsageError extends Error {}

function options(argv: string[]): Options {
  const a = parseArgs(argv);
  const handlers = Number(a.handlers ?? 10);
  const seasons = Number(a.seasons ?? 2);
  if (!Number.isInteger(handlers) || handlers < 2) throw new UsageError('--handlers must be an integer >= 2');
  if (!Number.isInteger(seasons) || seasons < 1 || seasons > 30)
    throw new UsageError('--seasons must be an integer 1..30');
  const database = String(a.database ?? `sqlite:${resolve('bench/data', `bench-${handlers}-${seasons}.sqlite`)}`);
  const schema = database.startsWith('postgres') ? String(a.schema ?? `bench_${handlers}_${seasons}`) : undefined;
  const concurrency = Number(a.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError('--concurrency must be an integer >= 1');
  return { handlers, seasons, database, schema, force: a.force === true, concurrency };
}

async function prepareTarget(o: Options): Promise<void> {
  if (o.database.startsWith('sqlite:')) {
    const path = o.database.slice('sqlite:'.length);
    if (existsSync(path)) {
      if (!o.force) throw new UsageError(`${path} exists: pass --force to make it again.`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    }
    return;
  }
  const client = new pg.Client({ connectionString: o.database });
  await client.connect();
  try {
    const exists = await client.query('select 1 from information_schema.schemata where schema_name = $1', [o.schema]);
    if (exists.rowCount && !o.force) throw new UsageError(`schema ${o.schema} exists: pass --force to make it again.`);
    await client.query(`drop schema if exists ${o.schema} cascade`);
    await client.query(`create schema ${o.schema}`);
  } finally {
    await client.end();
  }
}

/**
 * For this connection only (the server opens the file with its own settings): no fsync when the WAL is copied into the
 * file, since a failed run is made again from scratch, and a page cache of 256 MB instead of 2 MB, as a month's
 * transaction writes about 100 KB a handler (1,000 handlers: 100 MB) and reads earlier months for year-to-date sums.
 */
async function bulkLoadPragmas(db: AppContext['db']): Promise<void> {
  await sql`pragma synchronous = off`.execute(db);
  await sql`pragma cache_size = -262144`.execute(db);
}

export async function generate(o: Options): Promise<{ ms: number; filings: number }> {
  const started = Date.now();
  await prepareTarget(o);
  const database = openDatabase({ url: o.database, pgSchema: o.schema });
  const pdfThreads = new PdfThreads(PDF_THREADS);
  try {
    if (database.dialect === 'sqlite') await bulkLoadPragmas(database.db);
    await migrateToLatest(database.db, o.schema);
    await ensureOAuthClients(database.db);
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: o.database,
      DATABASE_SCHEMA: o.schema,
      PORTAL_DEMO_DATA: '0',
    });
    const base: AppContext = {
      config,
      db: database.db,
      dialect: database.dialect,
      clock: systemClock,
      fileLinkSecret: await loadFileLinkSecret(database.db),
      pdfThreads,
    };
    const inTx = async (fn: (ctx: AppContext) => Promise<void>) =>
      base.db.transaction().execute((trx) => fn({ ...base, db: trx }));

    const today = isoTimestamp(systemClock.now()).slice(0, 10);
    const currentMonth = monthOf(today);
    const currentStart = seasonStartYear(seasonOf(today));
    const firstStart = currentStart - o.seasons + 1;
    const months: string[] = [];
    for (let m = `${firstStart}-09`; m <= currentMonth; m = addMonths(m, 1)) months.push(m);
    const filed = months.filter((m) => m < currentMonth);
    const handlers = benchHandlers(o.handlers);

    // Units of work for the progress line: accounts, filings (handler x month), year-end and transfers per season,
    // reports.
    const progress = new Progress(
      o.handlers +
        filed.length * o.handlers +
        (o.seasons - 1) * o.handlers +
        o.seasons * o.handlers +
        filed.length +
        o.seasons,
    );

    const handlerIds = new Map<string, string>();
    const viewers = new Map<string, Viewer>();
    let seasonIds: string[] = [];
    await inTx(async (ctx) => {
      const staff: Actor = { ctx, viewer: LOADER };
      await createUser(staff, {
        username: 'bench-staff',
        password: BENCH_PASSWORD,
        firstName: 'Bench',
        lastName: 'Staff',
        role: 'staff',
      });
      for (const [i, name] of DEMO_VARIETIES.entries())
        await insertNode(staff, 'pecan_varieties', { title: name, position: i });
      const seasons: string[] = [];
      for (let y = firstStart; y <= currentStart; y += 1) seasons.push(await ensureSeason(staff, y));
      await setCurrentSeason(staff, seasons[seasons.length - 1]);
      seasonIds = seasons;
    });
    // Accounts in batches: each user costs one Argon2id hash (about 10 ms, 19 MiB), the hashes of a batch run in
    // parallel.
    for (let i = 0; i < handlers.length; i += 50) {
      const batch = handlers.slice(i, i + 50);
      await inTx(async (ctx) => {
        const staff: Actor = { ctx, viewer: LOADER };
        for (const h of batch) {
          handlerIds.set(
            h.number,
            await createHandler(staff, {
              number: h.number,
              name: h.name,
              directory: h.directory,
              address: h.address,
              phone: h.phone,
              email: h.email,
              website: h.website,
            }),
          );
        }
      });
      const users = batch.flatMap((h) => h.users.map((u) => ({ u, h })));
      await inTx(async (ctx) => {
        const staff: Actor = { ctx, viewer: LOADER };
        // createUser hashes inside; the hashes of one batch overlap because @node-rs/argon2 runs them on libuv's pool.
        const ids = await Promise.all(
          users.map(({ u, h }) =>
            createUser(staff, {
              username: u.username,
              password: BENCH_PASSWORD,
              firstName: u.firstName,
              lastName: u.lastName,
              mail: `${u.username}@bench.example`,
              role: 'handler',
              handlerNumber: h.number,
              directory: u.directory,
              jobTitle: u.jobTitle,
            }),
          ),
        );
        users.forEach(({ u, h }, k) => {
          if (!viewers.has(h.number))
            viewers.set(h.number, {
              userId: ids[k],
              name: u.username,
              role: 'handler',
              handlerId: handlerIds.get(h.number)!,
            });
        });
      });
      progress.tick(batch.length, 'accounts');
    }

    const receivers = await receivingHandlers(base);
    const isReceiver = (h: BenchHandler) => receivers.has(handlerIds.get(h.number)!);
    for (const month of months) {
      await inTx(async (ctx) => {
        await openPeriod({ ctx: at(ctx, `${addMonths(month, 1)}-01T12:00:00Z`), viewer: LOADER }, month);
        if (month === currentMonth) return;
        const file = async (h: BenchHandler) => {
          await fileMonth(ctx, viewers.get(h.number)!, h, month, BENCH_PROFILE);
          progress.tick(1, `filings ${month}`);
        };
        // Several handlers' filings at once, so that one renders its PDFs on a thread while another is validated and
        // written. A filing also settles the invoice of the handler it ships to: those receivers file first, one at
        // a time, so that no filing creates a receiver's invoice while the receiver's own filing is creating it
        // (afterwards a sender's settlement only reads it). Every other filing touches its own handler's rows.
        for (const h of handlers.filter(isReceiver)) await file(h);
        await pMap(
          handlers.filter((h) => !isReceiver(h)),
          file,
          { concurrency: o.concurrency },
        );
      });
    }

    await inTx(async (ctx) => payOldInvoices(ctx, currentMonth));

    for (const [si, seasonId] of seasonIds.entries()) {
      const start = `${firstStart + si}-09`;
      await inTx(async (ctx) => {
        // Transfers: about one handler in five has an agreement with the next handler each season.
        for (const [i, h] of handlers.entries()) {
          const rand = seededRandom(`${h.number}-${firstStart + si}-transfer`);
          if (rand() < 0.2) {
            const to = handlers[(i + 1) % handlers.length];
            const first = addMonths(start, 1 + Math.floor(rand() * 3));
            const from = viewers.get(h.number)!;
            const id = await post(at(ctx, `${first}-05T15:00:00Z`), from, 'node--apc_form_4', {
              attributes: {
                field_responsible_handler: 'receiving',
                field_first_transfer_month: first,
                field_certified: true,
                field_certification_name: from.name,
              },
              relationships: {
                field_receiving_handler: link('node--handler', handlerIds.get(to.number)!),
                field_season: link('node--season', seasonId),
              },
            });
            const receiver = viewers.get(to.number)!;
            if (rand() < 0.8)
              await patch(at(ctx, `${first}-07T15:00:00Z`), receiver, 'node--apc_form_4', id, {
                attributes: {
                  field_receiving_certified: true,
                  field_receiving_certification_name: receiver.name,
                  field_receiving_certification_title: 'Owner',
                },
              });
            else
              await patch(at(ctx, `${first}-08T15:00:00Z`), receiver, 'node--apc_form_4', id, {
                attributes: { field_form_activity: 'cancelled' },
              });
          }
          await post(at(ctx, `${start}-05T15:00:00Z`), viewers.get(h.number)!, 'node--handler_packet_confirmation', {
            attributes: { field_handler_packet_confirm: true, field_certification_name: viewers.get(h.number)!.name },
            relationships: {
              field_handler: link('node--handler', handlerIds.get(h.number)!),
              field_season: link('node--season', seasonId),
            },
          });
          progress.tick(1, 'transfers and confirmations');
        }
        if (si < seasonIds.length - 1) {
          // A year-end form is its own handler's alone: several at once, as the filings.
          await pMap(
            handlers,
            async (h) => {
              await fileYearEnd(ctx, viewers.get(h.number)!, h, seasonId, false);
              progress.tick(1, 'year-end forms');
            },
            { concurrency: o.concurrency },
          );
        }
      });
    }

    for (const [i, month] of filed.entries()) {
      await inTx(async (ctx) => {
        const staff: Actor = { ctx: at(ctx, `${addMonths(month, 1)}-25T09:00:00Z`), viewer: LOADER };
        const report = await generateMonthlyPositionReport(staff, month);
        if (i < filed.length - 1) await publishMonthlyPositionReport(staff, report.id, true);
      });
      progress.tick(1, 'position reports');
    }
    for (const [i, seasonId] of seasonIds.entries()) {
      await inTx(async (ctx) => {
        const staff: Actor = { ctx, viewer: LOADER };
        if (i < seasonIds.length - 1) await generateAnnualPositionReport(staff, seasonId);
        await generateIndustryAnalytics(staff, seasonId);
        await generateAllHandlerAnalytics(staff, seasonId);
      });
      progress.tick(1, 'analytics');
    }
    progress.done();
    return { ms: Date.now() - started, filings: filed.length * o.handlers };
  } finally {
    await pdfThreads.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const run = async () => {
    const o = options(process.argv.slice(2));
    const { ms, filings } = await generate(o);
    console.log(
      `Generated ${o.handlers} handlers x ${o.seasons} seasons (${filings} monthly filings) into ${o.database}${o.schema ? ` schema ${o.schema}` : ''} in ${(ms / 1000).toFixed(1)} s (${(filings / (ms / 1000)).toFixed(1)} filings/s).`,
    );
  };
  run().catch((error: unknown) => {
    // Anything else failed while filing: its stack, and a database error's detail (which key, which row).
    console.error(error instanceof UsageError ? error.message : error);
    process.exit(1);
  });
}

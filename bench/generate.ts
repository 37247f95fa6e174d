/**
 * `npm run bench:data -- --handlers N --seasons S [--database URL] [--schema NAME] [--force]`
 *
 * Writes a realistic data set through the same code paths as real filings: handlers and users (createHandler,
 * createUser with scrypt hashes), seasons, openPeriod per month, then per handler and month forms 1, 2 and 3 edited
 * and certified as JSON:API documents (decodeWrite + the type's write handler: validation, computed fields, the
 * PDF of every certified version, the invoice of form 1), import and export sub-records, amendments, transfer
 * agreements (form 4), year-end forms (form 5), packet confirmations, paid invoices, position reports and analytics.
 * The current month is opened but not filed: its drafts are what the benchmark edits and certifies.
 *
 * SQLite by default (bench/data/bench-N-S.sqlite); PostgreSQL with --database postgres://... into schema
 * --schema (default bench_N_S), made fresh with --force.
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { addDays, addMonths, monthOf, seasonOf, seasonStartYear } from '@pecan/contract';
import { loadConfig } from '../server/src/config/config.js';
import type { AppContext, Viewer } from '../server/src/context.js';
import { migrateToLatest, openDatabase } from '../server/src/db/database.js';
import { link, patch, post } from '../server/src/demo/requests.js';
import { DEMO_VARIETIES } from '../server/src/demo/data.js';
import { loadFileLinkSecret } from '../server/src/files/signing.js';
import { isoTimestamp, systemClock } from '../server/src/lib/time.js';
import { ensureOAuthClients } from '../server/src/oauth/clients.js';
import { createHandler, createUser } from '../server/src/workflows/accounts.js';
import { insertNode, type Actor } from '../server/src/workflows/common.js';
import { markInvoicePaid } from '../server/src/workflows/invoices.js';
import {
  generateAllHandlerAnalytics, generateAnnualPositionReport, generateIndustryAnalytics, generateMonthlyPositionReport,
  publishMonthlyPositionReport,
} from '../server/src/workflows/reports/index.js';
import { ensureSeason, openPeriod, setCurrentSeason } from '../server/src/workflows/seasons.js';
import { benchHandlers, BENCH_PASSWORD, filingFigures, parseArgs, Progress, seededRandom, type BenchHandler } from './lib.js';

const STAFF: Viewer = { userId: 'bench-loader', name: 'staff', role: 'staff', handlerId: null };
const at = (ctx: AppContext, iso: string): AppContext => ({ ...ctx, clock: { now: () => new Date(iso) } });
const EXPORT_MARKETS = ['CN', 'VN', 'CA', 'NL', 'MX', 'IN', 'DE', 'KR'];

interface Options { handlers: number; seasons: number; database: string; schema?: string; force: boolean }

function options(argv: string[]): Options {
  const a = parseArgs(argv);
  const handlers = Number(a.handlers ?? 10);
  const seasons = Number(a.seasons ?? 2);
  if (!Number.isInteger(handlers) || handlers < 2) throw new Error('--handlers must be an integer >= 2');
  if (!Number.isInteger(seasons) || seasons < 1 || seasons > 30) throw new Error('--seasons must be an integer 1..30');
  const database = String(a.database ?? `sqlite:${resolve('bench/data', `bench-${handlers}-${seasons}.sqlite`)}`);
  const schema = database.startsWith('postgres') ? String(a.schema ?? `bench_${handlers}_${seasons}`) : undefined;
  return { handlers, seasons, database, schema, force: a.force === true };
}

async function prepareTarget(o: Options): Promise<void> {
  if (o.database.startsWith('sqlite:')) {
    const path = o.database.slice('sqlite:'.length);
    if (existsSync(path)) {
      if (!o.force) throw new Error(`${path} exists: pass --force to make it again.`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    }
    return;
  }
  const client = new pg.Client({ connectionString: o.database });
  await client.connect();
  try {
    const exists = await client.query('select 1 from information_schema.schemata where schema_name = $1', [o.schema]);
    if (exists.rowCount && !o.force) throw new Error(`schema ${o.schema} exists: pass --force to make it again.`);
    await client.query(`drop schema if exists ${o.schema} cascade`);
    await client.query(`create schema ${o.schema}`);
  } finally {
    await client.end();
  }
}

export async function generate(o: Options): Promise<{ ms: number; filings: number }> {
  const started = Date.now();
  await prepareTarget(o);
  const database = openDatabase({ url: o.database, pgSchema: o.schema });
  try {
    await migrateToLatest(database.db, o.schema);
    await ensureOAuthClients(database.db);
    const config = loadConfig({ ...process.env, DATABASE_URL: o.database, DATABASE_SCHEMA: o.schema, PORTAL_DEMO_DATA: '0' });
    const base: AppContext = { config, db: database.db, dialect: database.dialect, clock: systemClock, fileLinkSecret: await loadFileLinkSecret(database.db) };
    const inTx = async (fn: (ctx: AppContext) => Promise<void>) => base.db.transaction().execute((trx) => fn({ ...base, db: trx }));

    const today = isoTimestamp(systemClock.now()).slice(0, 10);
    const currentMonth = monthOf(today);
    const currentStart = seasonStartYear(seasonOf(today));
    const firstStart = currentStart - o.seasons + 1;
    const months: string[] = [];
    for (let m = `${firstStart}-09`; m <= currentMonth; m = addMonths(m, 1)) months.push(m);
    const filed = months.filter((m) => m < currentMonth);
    const handlers = benchHandlers(o.handlers);

    // Units of work for the progress line: accounts, filings (handler x month), year-end and transfers per season, reports.
    const progress = new Progress(o.handlers + filed.length * o.handlers + (o.seasons - 1) * o.handlers + o.seasons * o.handlers + filed.length + o.seasons);

    const handlerIds = new Map<string, string>();
    const viewers = new Map<string, Viewer>();
    let seasonIds: string[] = [];
    await inTx(async (ctx) => {
      const staff: Actor = { ctx, viewer: STAFF };
      await createUser(staff, { username: 'bench-staff', password: BENCH_PASSWORD, firstName: 'Bench', lastName: 'Staff', role: 'staff' });
      for (const [i, name] of DEMO_VARIETIES.entries()) await insertNode(staff, 'pecan_varieties', { title: name, position: i });
      const seasons: string[] = [];
      for (let y = firstStart; y <= currentStart; y += 1) seasons.push(await ensureSeason(staff, y));
      await setCurrentSeason(staff, seasons[seasons.length - 1]);
      seasonIds = seasons;
    });
    // Accounts in batches: each user costs one scrypt hash (about 50 ms), the hashes of a batch run in parallel.
    for (let i = 0; i < handlers.length; i += 50) {
      const batch = handlers.slice(i, i + 50);
      await inTx(async (ctx) => {
        const staff: Actor = { ctx, viewer: STAFF };
        for (const h of batch) {
          handlerIds.set(h.number, await createHandler(staff, { number: h.number, name: h.name, directory: h.directory, address: h.address, phone: h.phone, email: h.email, website: h.website }));
        }
      });
      const users = batch.flatMap((h) => h.users.map((u) => ({ u, h })));
      await inTx(async (ctx) => {
        const staff: Actor = { ctx, viewer: STAFF };
        // createUser hashes inside; the hashes of one batch overlap because scrypt runs on libuv's pool.
        const ids = await Promise.all(users.map(({ u, h }) => createUser(staff, {
          username: u.username, password: BENCH_PASSWORD, firstName: u.firstName, lastName: u.lastName, mail: `${u.username}@bench.example`,
          role: 'handler', handlerNumber: h.number, directory: u.directory, jobTitle: u.jobTitle,
        })));
        users.forEach(({ u, h }, k) => {
          if (!viewers.has(h.number)) viewers.set(h.number, { userId: ids[k], name: u.username, role: 'handler', handlerId: handlerIds.get(h.number)! });
        });
      });
      progress.tick(batch.length, 'accounts');
    }

    for (const month of months) {
      await inTx(async (ctx) => {
        await openPeriod({ ctx: at(ctx, `${addMonths(month, 1)}-01T12:00:00Z`), viewer: STAFF }, month);
        if (month === currentMonth) return;
        for (const h of handlers) {
          await fileMonth(ctx, viewers.get(h.number)!, h, month);
          progress.tick(1, `filings ${month}`);
        }
      });
    }

    await inTx(async (ctx) => payOldInvoices(ctx, currentMonth));

    for (const [si, seasonId] of seasonIds.entries()) {
      const start = `${firstStart + si}-09`;
      await inTx(async (ctx) => {
        // Transfers: about one handler in five has an agreement with the next handler each season.
        for (const [i, h] of handlers.entries()) {
          const rand = seededRandom(`${h.number}-${seasonId}-transfer`);
          if (rand() < 0.2) {
            const to = handlers[(i + 1) % handlers.length];
            const first = addMonths(start, 1 + Math.floor(rand() * 3));
            const from = viewers.get(h.number)!;
            const id = await post(at(ctx, `${first}-05T15:00:00Z`), from, 'node--apc_form_4', {
              attributes: { field_responsible_handler: 'receiving', field_first_transfer_month: first, field_certified: true, field_certification_name: from.name },
              relationships: { field_receiving_handler: link('node--handler', handlerIds.get(to.number)!), field_season: link('node--season', seasonId) },
            });
            const receiver = viewers.get(to.number)!;
            if (rand() < 0.8) await patch(at(ctx, `${first}-07T15:00:00Z`), receiver, 'node--apc_form_4', id, { attributes: { field_receiving_certification_name: receiver.name } });
            else await patch(at(ctx, `${first}-08T15:00:00Z`), receiver, 'node--apc_form_4', id, { attributes: { field_form_activity: 'cancelled' } });
          }
          await post(at(ctx, `${start}-05T15:00:00Z`), viewers.get(h.number)!, 'node--handler_packet_confirmation', {
            attributes: { field_handler_packet_confirm: true, field_certification_name: viewers.get(h.number)!.name },
            relationships: { field_handler: link('node--handler', handlerIds.get(h.number)!), field_season: link('node--season', seasonId) },
          });
          progress.tick(1, 'transfers and confirmations');
        }
        if (si < seasonIds.length - 1) {
          for (const h of handlers) {
            await fileYearEnd(ctx, viewers.get(h.number)!, h, seasonId);
            progress.tick(1, 'year-end forms');
          }
        }
      });
    }

    for (const [i, month] of filed.entries()) {
      await inTx(async (ctx) => {
        const staff: Actor = { ctx: at(ctx, `${addMonths(month, 1)}-25T09:00:00Z`), viewer: STAFF };
        const report = await generateMonthlyPositionReport(staff, month);
        if (i < filed.length - 1) await publishMonthlyPositionReport(staff, report.id, true);
      });
      progress.tick(1, 'position reports');
    }
    for (const [i, seasonId] of seasonIds.entries()) {
      await inTx(async (ctx) => {
        const staff: Actor = { ctx, viewer: STAFF };
        if (i < seasonIds.length - 1) await generateAnnualPositionReport(staff, seasonId);
        await generateIndustryAnalytics(staff, seasonId);
        await generateAllHandlerAnalytics(staff, seasonId);
      });
      progress.tick(1, 'analytics');
    }
    progress.done();
    return { ms: Date.now() - started, filings: filed.length * o.handlers };
  } finally {
    await database.close();
  }
}

/** Forms 1, 2 and 3 of one handler and month, certified two days before the due date; now and then an amendment. */
async function fileMonth(ctx: AppContext, viewer: Viewer, h: BenchHandler, month: string): Promise<void> {
  const pkg = await ctx.db.selectFrom('reporting_forms_packages as k').innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
    .select(['k.id', 'p.due_date']).where('k.handler_id', '=', viewer.handlerId!).where('p.period_month', '=', month).executeTakeFirstOrThrow();
  const when = at(ctx, `${addDays(String(pkg.due_date), -2)}T15:00:00Z`);
  const rand = seededRandom(`${h.number}-${month}`);
  const lb = (base: number) => Math.round(base * h.size * (0.7 + rand() * 0.6));
  const certify = { field_certified: true, field_certification_name: viewer.name, field_certification_title: 'Authorized officer' };
  const form1 = await ctx.db.selectFrom('apc_form_1').select('id').where('package_id', '=', pkg.id as string).executeTakeFirstOrThrow();
  await patch(when, viewer, 'node--apc_form_1', form1.id as string, {
    attributes: { field_date_completed: String(when.clock.now().toISOString()).slice(0, 10), ...filingFigures(h, month, lb), ...certify },
  });
  const form2 = await ctx.db.selectFrom('apc_form_2').select('id').where('package_id', '=', pkg.id as string).executeTakeFirstOrThrow();
  const imports = rand() < 0.3 ? 1 + Math.floor(rand() * 3) : 0;
  for (let i = 0; i < imports; i += 1) {
    await post(when, viewer, 'node--pecans_purchased_non_us', {
      attributes: { field_import_date: `${month}-1${Math.floor(rand() * 9)}`, field_country_of_origin: rand() < 0.7 ? 'MX' : 'ZA', field_inshell_lb: lb(40_000), field_shelled_lb: 0, field_variety: 'Western Schley' },
      relationships: { field_form: link('node--apc_form_2', form2.id as string) },
    });
  }
  await patch(when, viewer, 'node--apc_form_2', form2.id as string, { attributes: { field_no_change_flag: imports === 0, ...certify } });
  const form3 = await ctx.db.selectFrom('apc_form_3').select('id').where('package_id', '=', pkg.id as string).executeTakeFirstOrThrow();
  const markets = EXPORT_MARKETS.filter(() => rand() < 0.3);
  for (const country of markets) {
    await post(when, viewer, 'node--export_by_country', {
      attributes: { field_country: country, field_inshell_lb: lb(30_000), field_shelled_lb: lb(12_000), field_substandard_lb: 0 },
      relationships: { field_form: link('node--apc_form_3', form3.id as string) },
    });
  }
  await patch(when, viewer, 'node--apc_form_3', form3.id as string, { attributes: { field_no_change_flag: markets.length === 0, ...certify } });
  // About one filing in twenty-five gets an amended form 1 later in the month after (late weigh tickets).
  if (rand() < 0.04) {
    const current = await ctx.db.selectFrom('apc_form_1').select(['id', 'receipts_by_variety']).where('package_id', '=', pkg.id as string)
      .where('form_status', '=', 'certified').executeTakeFirstOrThrow();
    const rows = JSON.parse(String(current.receipts_by_variety)) as Array<{ variety: string; pounds: number }>;
    await post(at(ctx, `${String(pkg.due_date)}T16:00:00Z`), viewer, 'node--apc_form_1', {
      attributes: {
        field_receipts_by_variety: rows.map((r, i) => (i === 0 ? { ...r, pounds: r.pounds + 12_500 } : r)),
        field_amendment_reason: 'Late weigh tickets', ...certify,
      },
      relationships: { field_amendment_of: link('node--apc_form_1', String(current.id)) },
    });
  }
}

async function payOldInvoices(ctx: AppContext, currentMonth: string): Promise<void> {
  const cutoff = `${addMonths(currentMonth, -1)}-01`;
  const invoices = await ctx.db.selectFrom('invoices').select(['id', 'due_date', 'invoice_number']).where('due_date', '<', cutoff)
    .where('invoice_status', '<>', 'paid').execute();
  for (const inv of invoices) {
    await markInvoicePaid({ ctx: at(ctx, `${String(inv.due_date)}T10:00:00Z`), viewer: STAFF }, inv.id as string, String(inv.due_date), `ACH-${String(inv.invoice_number)}`);
  }
}

async function fileYearEnd(ctx: AppContext, viewer: Viewer, h: BenchHandler, seasonId: string): Promise<void> {
  const season = await ctx.db.selectFrom('seasons').select(['title', 'season_end_date']).where('id', '=', seasonId).executeTakeFirstOrThrow();
  const rand = seededRandom(`${h.number}-${String(season.title)}-year-end`);
  const lb = (base: number) => Math.round(base * h.size * (0.8 + rand() * 0.4));
  const shelled = lb(160_000);
  const halves = Math.round(shelled * 0.55);
  const pieces = Math.round(shelled * 0.35);
  const when = at(ctx, `${String(season.season_end_date).slice(0, 4)}-09-08T14:00:00Z`);
  await post(when, viewer, 'node--apc_form_5', {
    attributes: {
      field_inshell_inventory_improved: lb(300_000), field_inshell_inventory_native: lb(90_000),
      field_inshell_inventory_substandard: h.substandard ? lb(9_000) : 0,
      field_inshell_committed_domestic: lb(120_000), field_inshell_committed_export: lb(60_000),
      field_avg_price_paid_improved: '2.35', field_avg_price_paid_native: '1.40', field_avg_price_paid_substandard: h.substandard ? '0.55' : '0.00',
      field_shelled_inventory: shelled, field_shelled_committed_domestic: Math.round(shelled * 0.3), field_shelled_committed_export: Math.round(shelled * 0.2),
      field_shelled_halves: halves, field_shelled_pieces: pieces, field_shelled_wip: shelled - halves - pieces,
      field_shellout_yield: '0.4800',
      field_handled_domestic_improved: lb(1_900_000), field_handled_domestic_native: lb(600_000), field_handled_domestic_substandard: h.substandard ? lb(40_000) : 0,
      field_aug_form_1_amend_reqd: false,
      field_certified: true, field_certification_name: viewer.name, field_certification_title: 'Authorized officer',
    },
    relationships: { field_season: link('node--season', seasonId) },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const o = options(process.argv.slice(2));
  generate(o).then(({ ms, filings }) => {
    console.log(`Generated ${o.handlers} handlers x ${o.seasons} seasons (${filings} monthly filings) into ${o.database}${o.schema ? ` schema ${o.schema}` : ''} in ${(ms / 1000).toFixed(1)} s (${(filings / (ms / 1000)).toFixed(1)} filings/s).`);
  }, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

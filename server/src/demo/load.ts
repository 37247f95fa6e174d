import type { FastifyBaseLogger } from 'fastify';
import { addDays, addMonths, monthOf, seasonOf, seasonStartYear } from '@pecan/contract';
import type { AppContext, Viewer } from '../context.js';
import { isoTimestamp } from '../lib/time.js';
import { createHandler, createUser } from '../workflows/accounts.js';
import { dbOf, insertNode, type Actor } from '../workflows/common.js';
import { markInvoicePaid } from '../workflows/invoices.js';
import {
  generateAllHandlerAnalytics, generateAnnualPositionReport, generateIndustryAnalytics, generateMonthlyPositionReport,
  publishMonthlyPositionReport,
} from '../workflows/reports/index.js';
import { ensureSeason, openPeriod, setCurrentSeason } from '../workflows/seasons.js';
import { DEMO_HANDLERS, DEMO_PASSWORD, DEMO_USERS, DEMO_VARIETIES, HARVEST_WEIGHT, seededRandom, type DemoHandler } from './data.js';
import { link, patch, post } from './requests.js';

export interface DemoCredentials {
  password: string;
  users: Array<{ username: string; description: string }>;
}

const STAFF: Viewer = { userId: 'demo-loader', name: 'staff', role: 'staff', handlerId: null };

/** The clock a step runs at, so a demo filing is certified before its due date, not all today. */
const at = (ctx: AppContext, iso: string): AppContext => ({ ...ctx, clock: { now: () => new Date(iso) } });

/** Loads the demo data set into an empty database, in one transaction: all of it or nothing. */
export async function loadDemoDataIfEmpty(ctx: AppContext, log?: FastifyBaseLogger): Promise<DemoCredentials | null> {
  const anyUser = await ctx.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return null;
  const started = Date.now();
  const credentials = await ctx.db.transaction().execute((trx) => loadDemoData({ ...ctx, db: trx }));
  log?.info({ ms: Date.now() - started }, 'demo data set loaded');
  return credentials;
}

/** The demo credentials the sign-in page shows, when this database was loaded with the demo data set. */
export async function demoCredentials(ctx: AppContext): Promise<DemoCredentials | null> {
  const row = await ctx.db.selectFrom('settings').select('value').where('name', '=', 'demo_credentials').executeTakeFirst();
  return row ? (JSON.parse(String(row.value)) as DemoCredentials) : null;
}

export async function loadDemoData(ctx: AppContext): Promise<DemoCredentials> {
  const today = isoTimestamp(ctx.clock.now()).slice(0, 10);
  const currentMonth = monthOf(today);
  const currentStart = seasonStartYear(seasonOf(today));
  const staff: Actor = { ctx, viewer: STAFF };

  const handlerIds = new Map<string, string>();
  for (const h of DEMO_HANDLERS) {
    handlerIds.set(h.number, await createHandler(staff, { number: h.number, name: h.name, directory: h.directory, address: h.address, phone: h.phone, email: h.email, website: h.website }));
  }
  const viewers = new Map<string, Viewer>();
  for (const u of [...DEMO_USERS, { username: 'dave', firstName: 'Dave', lastName: 'Okafor', handler: '103', directory: false, jobTitle: 'Plant Manager', description: 'Gulf Coast Shellers' }]) {
    const id = await createUser(staff, {
      username: u.username, password: DEMO_PASSWORD, firstName: u.firstName, lastName: u.lastName, mail: `${u.username}@example.com`,
      role: u.handler ? 'handler' : 'staff', handlerNumber: u.handler, directory: u.directory, jobTitle: u.jobTitle,
    });
    viewers.set(u.username, { userId: id, name: u.username, role: u.handler ? 'handler' : 'staff', handlerId: u.handler ? handlerIds.get(u.handler)! : null });
  }
  for (const [i, name] of DEMO_VARIETIES.entries()) await insertNode(staff, 'pecan_varieties', { title: name, position: i });

  const seasonIds: string[] = [];
  for (let y = currentStart - 2; y <= currentStart; y += 1) seasonIds.push(await ensureSeason(staff, y));
  await setCurrentSeason(staff, seasonIds[2]);

  const filer = (number: string) => viewers.get(number === '101' ? 'alice' : number === '102' ? 'carol' : 'dave')!;
  const months: string[] = [];
  for (let m = `${currentStart - 2}-09`; m <= currentMonth; m = addMonths(m, 1)) months.push(m);
  for (const month of months) {
    await openPeriod({ ctx: at(ctx, `${addMonths(month, 1)}-01T12:00:00Z`), viewer: STAFF }, month);
    if (month === currentMonth) continue;
    for (const h of DEMO_HANDLERS) await fileMonth(ctx, filer(h.number), h, month);
  }

  await payOldInvoices(ctx, currentMonth);
  await amendForm1(ctx, viewers.get('alice')!, addMonths(currentMonth, -2), 'Late weigh tickets from the Stuart orchard');
  await amendForm1(ctx, viewers.get('alice')!, addMonths(currentMonth, -12), 'Substandard lot re-graded after inspection');
  for (const seasonId of seasonIds.slice(0, 2)) {
    for (const h of DEMO_HANDLERS) await fileYearEnd(ctx, filer(h.number), h, seasonId);
  }
  await fileTransfers(ctx, viewers, handlerIds, seasonIds);
  await post(at(ctx, `${currentStart - 1}-09-05T15:00:00Z`), viewers.get('alice')!, 'node--handler_packet_confirmation', {
    attributes: { field_handler_packet_confirm: true, field_certification_name: 'alice' },
    relationships: { field_handler: link('node--handler', handlerIds.get('101')!), field_season: link('node--season', seasonIds[1]) },
  });

  await publishReports(ctx, months.filter((m) => m < currentMonth), seasonIds);

  const credentials: DemoCredentials = {
    password: DEMO_PASSWORD,
    users: [...DEMO_USERS.map((u) => ({ username: u.username, description: u.description })), { username: 'dave', description: 'Gulf Coast Shellers, handler 103' }],
  };
  await dbOf(staff).insertInto('settings').values({ name: 'demo_credentials', value: JSON.stringify(credentials) }).execute();
  return credentials;
}

/**
 * Position reports for every filed month, each published about a month after the month it covers, except the
 * newest, which staff have generated but not yet published; annual reports for past seasons; analytics per season.
 */
async function publishReports(ctx: AppContext, filedMonths: string[], seasonIds: string[]): Promise<void> {
  for (const [i, month] of filedMonths.entries()) {
    const staff: Actor = { ctx: at(ctx, `${addMonths(month, 1)}-25T09:00:00Z`), viewer: STAFF };
    const report = await generateMonthlyPositionReport(staff, month);
    if (i < filedMonths.length - 1) await publishMonthlyPositionReport(staff, report.id, true);
  }
  for (const [i, seasonId] of seasonIds.entries()) {
    const staff: Actor = { ctx, viewer: STAFF };
    if (i < seasonIds.length - 1) await generateAnnualPositionReport(staff, seasonId);
    await generateIndustryAnalytics(staff, seasonId);
    await generateAllHandlerAnalytics(staff, seasonId);
  }
}

/** A handler's three monthly forms for a past month, filled in and certified two days before the due date. */
async function fileMonth(ctx: AppContext, viewer: Viewer, h: DemoHandler, month: string): Promise<void> {
  const pkg = await ctx.db.selectFrom('reporting_forms_packages as k').innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
    .select(['k.id', 'p.due_date']).where('k.handler_id', '=', viewer.handlerId!).where('p.period_month', '=', month).executeTakeFirstOrThrow();
  const when = at(ctx, `${addDays(String(pkg.due_date), -2)}T15:00:00Z`);
  const forms = await ctx.db.selectFrom('apc_form_1').select('id').where('package_id', '=', pkg.id as string).executeTakeFirstOrThrow();
  const rand = seededRandom(`${h.number}-${month}`);
  const weight = HARVEST_WEIGHT[(Number(month.slice(5, 7)) + 3) % 12];
  const lb = (base: number) => Math.round(base * h.size * (0.7 + rand() * 0.6));
  const certify = { field_certified: true, field_certification_name: `${viewer.name}`, field_certification_title: 'Authorized officer' };
  await patch(when, viewer, 'node--apc_form_1', forms.id as string, {
    attributes: {
      field_date_completed: String(when.clock.now().toISOString()).slice(0, 10),
      field_receipts_by_variety: h.varieties.map((variety) => ({ variety, pounds: lb(180_000 * weight) })),
      field_receipts_native: lb(60_000 * weight),
      field_receipts_substandard: h.substandard ? lb(8_000 * weight) : 0,
      field_shipments_inshell: lb(120_000), field_shipments_shelled: lb(45_000),
      field_interhandler_shipped: lb(10_000 * weight), field_interhandler_received: lb(6_000 * weight),
      field_inventory_inshell: lb(900_000 * (0.3 + weight)), field_inventory_shelled: lb(150_000),
      field_committed_domestic: lb(200_000), field_committed_export: lb(90_000), field_under_contract_from_handlers: lb(20_000 * weight),
      ...certify,
    },
  });
  await fileForm2(when, viewer, pkg.id as string, month, rand, lb, certify);
  await fileForm3(when, viewer, pkg.id as string, rand, lb, certify);
}

type Pounds = (base: number) => number;

async function fileForm2(ctx: AppContext, viewer: Viewer, packageId: string, month: string, rand: () => number, lb: Pounds, certify: Record<string, unknown>): Promise<void> {
  const form = await ctx.db.selectFrom('apc_form_2').select('id').where('package_id', '=', packageId).executeTakeFirstOrThrow();
  const imports = rand() < 0.4;
  if (imports) {
    await post(ctx, viewer, 'node--pecans_purchased_non_us', {
      attributes: { field_import_date: `${month}-1${Math.floor(rand() * 9)}`, field_country_of_origin: 'MX', field_inshell_lb: lb(40_000), field_shelled_lb: 0, field_variety: 'Western Schley' },
      relationships: { field_form: link('node--apc_form_2', form.id as string) },
    });
  }
  await patch(ctx, viewer, 'node--apc_form_2', form.id as string, { attributes: { field_no_change_flag: !imports, ...certify } });
}

const EXPORT_MARKETS = ['CN', 'VN', 'CA', 'NL', 'MX', 'IN'];

async function fileForm3(ctx: AppContext, viewer: Viewer, packageId: string, rand: () => number, lb: Pounds, certify: Record<string, unknown>): Promise<void> {
  const form = await ctx.db.selectFrom('apc_form_3').select('id').where('package_id', '=', packageId).executeTakeFirstOrThrow();
  const markets = EXPORT_MARKETS.filter(() => rand() < 0.45);
  for (const country of markets) {
    await post(ctx, viewer, 'node--export_by_country', {
      attributes: { field_country: country, field_inshell_lb: lb(30_000), field_shelled_lb: lb(12_000), field_substandard_lb: 0 },
      relationships: { field_form: link('node--apc_form_3', form.id as string) },
    });
  }
  await patch(ctx, viewer, 'node--apc_form_3', form.id as string, { attributes: { field_no_change_flag: markets.length === 0, ...certify } });
}

/** Invoices due more than a month ago are paid, the day before they fell due. */
async function payOldInvoices(ctx: AppContext, currentMonth: string): Promise<void> {
  const cutoff = `${addMonths(currentMonth, -1)}-01`;
  const invoices = await ctx.db.selectFrom('invoices').select(['id', 'due_date', 'invoice_number']).where('due_date', '<', cutoff).execute();
  for (const inv of invoices) {
    await markInvoicePaid({ ctx: at(ctx, `${String(inv.due_date)}T10:00:00Z`), viewer: STAFF }, inv.id as string, String(inv.due_date), `ACH-${String(inv.invoice_number)}`);
  }
}

/** An amendment of a certified form 1, with more receipts, certified: its invoice is adjusted or re-issued. */
async function amendForm1(ctx: AppContext, viewer: Viewer, month: string, reason: string): Promise<void> {
  const current = await ctx.db.selectFrom('apc_form_1 as f').innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .selectAll('f').select('p.due_date').where('f.handler_id', '=', viewer.handlerId!).where('p.period_month', '=', month)
    .where('f.form_status', '=', 'certified').executeTakeFirst();
  if (!current) return;
  const rows = JSON.parse(String(current.receipts_by_variety)) as Array<{ variety: string; pounds: number }>;
  const when = at(ctx, `${addMonths(month, 1)}-20T16:00:00Z`);
  await post(when, viewer, 'node--apc_form_1', {
    attributes: {
      field_receipts_by_variety: rows.map((r, i) => (i === 0 ? { ...r, pounds: r.pounds + 12_500 } : r)),
      field_amendment_reason: reason, field_certified: true, field_certification_name: viewer.name, field_certification_title: 'Authorized officer',
    },
    relationships: { field_amendment_of: link('node--apc_form_1', String(current.id)) },
  });
}

async function fileYearEnd(ctx: AppContext, viewer: Viewer, h: DemoHandler, seasonId: string): Promise<void> {
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
      field_aug_form_1_amend_reqd: h.number === '102',
      field_certified: true, field_certification_name: viewer.name, field_certification_title: 'Authorized officer',
    },
    relationships: { field_season: link('node--season', seasonId) },
  });
}

/** Transfers between 101 and 102: a current agreement countersigned, a past one, and one cancelled. */
async function fileTransfers(ctx: AppContext, viewers: Map<string, Viewer>, handlers: Map<string, string>, seasons: string[]): Promise<void> {
  const alice = viewers.get('alice')!;
  const carol = viewers.get('carol')!;
  const file = async (viewer: Viewer, to: string, seasonId: string, firstMonth: string) => post(at(ctx, `${firstMonth}-05T15:00:00Z`), viewer, 'node--apc_form_4', {
    attributes: { field_responsible_handler: 'receiving', field_first_transfer_month: firstMonth, field_certified: true, field_certification_name: viewer.name },
    relationships: { field_receiving_handler: link('node--handler', handlers.get(to)!), field_season: link('node--season', seasonId) },
  });
  const startOf = async (id: string) => String((await ctx.db.selectFrom('seasons').select('season_start_date').where('id', '=', id).executeTakeFirstOrThrow()).season_start_date).slice(0, 7);
  const current = await file(alice, '102', seasons[2], addMonths(await startOf(seasons[2]), 1));
  await patch(at(ctx, `${addMonths(await startOf(seasons[2]), 1)}-07T15:00:00Z`), carol, 'node--apc_form_4', current, { attributes: { field_receiving_certification_name: carol.name } });
  await file(carol, '101', seasons[1], addMonths(await startOf(seasons[1]), 2));
  const cancelled = await file(carol, '101', seasons[2], addMonths(await startOf(seasons[2]), 1));
  await patch(at(ctx, `${addMonths(await startOf(seasons[2]), 2)}-01T15:00:00Z`), carol, 'node--apc_form_4', cancelled, { attributes: { field_form_activity: 'cancelled' } });
}


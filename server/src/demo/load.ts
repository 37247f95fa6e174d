import type { FastifyBaseLogger } from 'fastify';
import { addMonths, monthOf, seasonOf, seasonStartYear } from '@pecan/contract';
import type { AppContext, Viewer } from '../context.js';
import { isoTimestamp } from '../lib/time.js';
import { createHandler, createUser } from '../workflows/accounts.js';
import { dbBool, dbOf, insertNode, type Actor } from '../workflows/common.js';
import {
  generateAllHandlerAnalytics,
  generateAnnualPositionReport,
  generateIndustryAnalytics,
  generateMonthlyPositionReport,
  publishMonthlyPositionReport,
} from '../workflows/reports/index.js';
import { ensureSeason, openPeriod, setCurrentSeason } from '../workflows/seasons.js';
import { enrolWithSecret } from '../oauth/mfa.js';
import { DEMO_HANDLERS, DEMO_PASSWORD, DEMO_STAFF_TOTP_SECRET, DEMO_USERS, DEMO_VARIETIES } from './data.js';
import { amendForm1, at, fileMonth, fileYearEnd, LOADER, payOldInvoices } from './filings.js';
import { link, patch, post } from './requests.js';

export interface DemoCredentials {
  password: string;
  /** `totpSecret`: the authenticator key of a user who signs in with a second factor (the staff user). */
  users: Array<{ username: string; description: string; totpSecret?: string }>;
}

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
  const row = await ctx.db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', 'demo_credentials')
    .executeTakeFirst();
  return row ? (JSON.parse(String(row.value)) as DemoCredentials) : null;
}

export async function loadDemoData(ctx: AppContext): Promise<DemoCredentials> {
  const today = isoTimestamp(ctx.clock.now()).slice(0, 10);
  const currentMonth = monthOf(today);
  const currentStart = seasonStartYear(seasonOf(today));
  const staff: Actor = { ctx, viewer: LOADER };

  const handlerIds = new Map<string, string>();
  for (const h of DEMO_HANDLERS) {
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
  const viewers = new Map<string, Viewer>();
  for (const u of [
    ...DEMO_USERS,
    {
      username: 'dave',
      firstName: 'Dave',
      lastName: 'Okafor',
      handler: '103',
      directory: false,
      jobTitle: 'Plant Manager',
      description: 'Gulf Coast Shellers',
    },
  ]) {
    const id = await createUser(staff, {
      username: u.username,
      password: DEMO_PASSWORD,
      firstName: u.firstName,
      lastName: u.lastName,
      mail: `${u.username}@example.com`,
      role: u.handler ? 'handler' : 'staff',
      handlerNumber: u.handler,
      directory: u.directory,
      jobTitle: u.jobTitle,
    });
    if (!u.handler) await enrolWithSecret(dbOf(staff), id, DEMO_STAFF_TOTP_SECRET, ctx.clock.now());
    // Alice and Carol manage their companies' API clients (docs/API-CLIENTS.md); Bob and Dave do not.
    if (u.username === 'alice' || u.username === 'carol')
      await dbOf(staff)
        .updateTable('users')
        .set({ handler_admin: dbBool(staff, true) })
        .where('id', '=', id)
        .execute();
    viewers.set(u.username, {
      userId: id,
      name: u.username,
      role: u.handler ? 'handler' : 'staff',
      handlerId: u.handler ? handlerIds.get(u.handler)! : null,
    });
  }
  for (const [i, name] of DEMO_VARIETIES.entries())
    await insertNode(staff, 'pecan_varieties', { title: name, position: i });

  const seasonIds: string[] = [];
  for (let y = currentStart - 2; y <= currentStart; y += 1) seasonIds.push(await ensureSeason(staff, y));
  await setCurrentSeason(staff, seasonIds[2]);

  const filer = (number: string) => viewers.get(number === '101' ? 'alice' : number === '102' ? 'carol' : 'dave')!;
  const months: string[] = [];
  for (let m = `${currentStart - 2}-09`; m <= currentMonth; m = addMonths(m, 1)) months.push(m);
  for (const month of months) {
    await openPeriod({ ctx: at(ctx, `${addMonths(month, 1)}-01T12:00:00Z`), viewer: LOADER }, month);
    if (month === currentMonth) continue;
    for (const h of DEMO_HANDLERS) await fileMonth(ctx, filer(h.number), h, month);
  }

  await payOldInvoices(ctx, currentMonth);
  for (const [monthsAgo, reason] of [
    [2, 'Late weigh tickets from the Stuart orchard'],
    [12, 'Substandard lot re-graded after inspection'],
  ] as const) {
    const month = addMonths(currentMonth, -monthsAgo);
    await amendForm1(at(ctx, `${addMonths(month, 1)}-20T16:00:00Z`), viewers.get('alice')!, month, reason);
  }
  for (const seasonId of seasonIds.slice(0, 2)) {
    for (const h of DEMO_HANDLERS) await fileYearEnd(ctx, filer(h.number), h, seasonId, h.number === '102');
  }
  await fileTransfers(ctx, viewers, handlerIds, seasonIds);
  await post(
    at(ctx, `${currentStart - 1}-09-05T15:00:00Z`),
    viewers.get('alice')!,
    'node--handler_packet_confirmation',
    {
      attributes: { field_handler_packet_confirm: true, field_certification_name: 'alice' },
      relationships: {
        field_handler: link('node--handler', handlerIds.get('101')!),
        field_season: link('node--season', seasonIds[1]),
      },
    },
  );

  await publishReports(
    ctx,
    months.filter((m) => m < currentMonth),
    seasonIds,
  );

  const credentials: DemoCredentials = {
    password: DEMO_PASSWORD,
    users: [
      ...DEMO_USERS.map((u) => ({
        username: u.username,
        description: u.description,
        ...(u.handler ? {} : { totpSecret: DEMO_STAFF_TOTP_SECRET }),
      })),
      { username: 'dave', description: 'Gulf Coast Shellers, handler 103' },
    ],
  };
  await dbOf(staff)
    .insertInto('settings')
    .values({ name: 'demo_credentials', value: JSON.stringify(credentials) })
    .execute();
  return credentials;
}

/**
 * Position reports for every filed month, each published about a month after the month it covers, except the
 * newest, which staff have generated but not yet published; annual reports for past seasons; analytics per season.
 */
async function publishReports(ctx: AppContext, filedMonths: string[], seasonIds: string[]): Promise<void> {
  for (const [i, month] of filedMonths.entries()) {
    const staff: Actor = { ctx: at(ctx, `${addMonths(month, 1)}-25T09:00:00Z`), viewer: LOADER };
    const report = await generateMonthlyPositionReport(staff, month);
    if (i < filedMonths.length - 1) await publishMonthlyPositionReport(staff, report.id, true);
  }
  for (const [i, seasonId] of seasonIds.entries()) {
    const staff: Actor = { ctx, viewer: LOADER };
    if (i < seasonIds.length - 1) await generateAnnualPositionReport(staff, seasonId);
    await generateIndustryAnalytics(staff, seasonId);
    await generateAllHandlerAnalytics(staff, seasonId);
  }
}

/** Transfers between 101 and 102: a current agreement countersigned, a past one, and one cancelled. */
async function fileTransfers(
  ctx: AppContext,
  viewers: Map<string, Viewer>,
  handlers: Map<string, string>,
  seasons: string[],
): Promise<void> {
  const alice = viewers.get('alice')!;
  const carol = viewers.get('carol')!;
  const file = async (viewer: Viewer, to: string, seasonId: string, firstMonth: string) =>
    post(at(ctx, `${firstMonth}-05T15:00:00Z`), viewer, 'node--apc_form_4', {
      attributes: {
        field_responsible_handler: 'receiving',
        field_first_transfer_month: firstMonth,
        field_certified: true,
        field_certification_name: viewer.name,
      },
      relationships: {
        field_receiving_handler: link('node--handler', handlers.get(to)!),
        field_season: link('node--season', seasonId),
      },
    });
  const startOf = async (id: string) =>
    String(
      (await ctx.db.selectFrom('seasons').select('season_start_date').where('id', '=', id).executeTakeFirstOrThrow())
        .season_start_date,
    ).slice(0, 7);
  const current = await file(alice, '102', seasons[2], addMonths(await startOf(seasons[2]), 1));
  await patch(at(ctx, `${addMonths(await startOf(seasons[2]), 1)}-07T15:00:00Z`), carol, 'node--apc_form_4', current, {
    attributes: {
      field_receiving_certified: true,
      field_receiving_certification_name: carol.name,
      field_receiving_certification_title: 'Owner',
    },
  });
  await file(carol, '101', seasons[1], addMonths(await startOf(seasons[1]), 2));
  const cancelled = await file(carol, '101', seasons[2], addMonths(await startOf(seasons[2]), 1));
  await patch(
    at(ctx, `${addMonths(await startOf(seasons[2]), 2)}-01T15:00:00Z`),
    carol,
    'node--apc_form_4',
    cancelled,
    { attributes: { field_form_activity: 'cancelled' } },
  );
}

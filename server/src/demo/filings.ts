import { addDays, addMonths } from '@pecan/contract';
import type { AppContext, Viewer } from '../context.js';
import { markInvoicePaid } from '../workflows/invoices.js';
import { HARVEST_WEIGHT, seededRandom } from './data.js';
import { link, patch, post } from './requests.js';

/**
 * Filings made up for the demo data set and the benchmark's larger data sets: deterministic figures, written through
 * the same JSON:API decoding and workflows as a real filing (see requests.ts).
 */
export const LOADER: Viewer = { userId: 'data-loader', name: 'staff', role: 'staff', handlerId: null };

/** The context a step runs at, so a made-up filing is certified before its due date, not all today. */
/**
 * The context at a moment of the demo's story, never later than the real clock: a step set after today (the current
 * month's period opens on the 1st of the next) happens now, so no record or audit entry is dated in the future.
 */
export const at = (ctx: AppContext, iso: string): AppContext => ({
  ...ctx,
  clock: {
    now: () => {
      const then = new Date(iso);
      const now = ctx.clock.now();
      return then < now ? then : now;
    },
  },
});

/** What the made-up figures of a handler depend on. */
export interface FilingHandler {
  number: string;
  /** Scales the handler's volumes. */
  size: number;
  /** Whether it receives substandard pecans. */
  substandard: boolean;
  varieties: string[];
}

/** How often a month has purchases abroad, exports and a later amendment of form 1. */
export interface FilingProfile {
  importChance: number;
  maxImports: number;
  importCountries: string[];
  exportChance: number;
  exportMarkets: string[];
  amendChance: number;
}

export const DEMO_PROFILE: FilingProfile = {
  importChance: 0.4,
  maxImports: 1,
  importCountries: ['MX'],
  exportChance: 0.45,
  exportMarkets: ['CN', 'VN', 'CA', 'NL', 'MX', 'IN'],
  amendChance: 0,
};

type Pounds = (base: number) => number;
const CERTIFIER_TITLE = 'Authorized officer';
const certifyAs = (viewer: Viewer) => ({
  field_certified: true,
  field_certification_name: viewer.name,
  field_certification_title: CERTIFIER_TITLE,
});

/** Form 1 figures of a handler for a month: receipts follow the harvest (October to January). */
export function form1Figures(
  h: FilingHandler,
  month: string,
  lb: Pounds,
  receiver: string | null = null,
): Record<string, unknown> {
  const weight = HARVEST_WEIGHT[(Number(month.slice(5, 7)) + 3) % 12];
  return {
    field_receipts_by_variety: h.varieties.map((variety) => ({ variety, pounds: lb(180_000 * weight) })),
    field_receipts_native: lb(60_000 * weight),
    field_receipts_substandard: h.substandard ? lb(8_000 * weight) : 0,
    field_shipments_inshell: lb(120_000),
    field_shipments_shelled: lb(45_000),
    field_interhandler_shipments: shipmentTo(receiver, lb(10_000 * weight)),
    field_interhandler_received: lb(6_000 * weight),
    field_inventory_inshell: lb(900_000 * (0.3 + weight)),
    field_inventory_shelled: lb(150_000),
    field_committed_domestic: lb(200_000),
    field_committed_export: lb(90_000),
    field_under_contract_from_handlers: lb(20_000 * weight),
    field_committed_domestic_shelled: lb(40_000),
    field_committed_export_shelled: lb(25_000),
    field_under_contract_shelled: lb(5_000 * weight),
  };
}

/** Improved pecans shipped to one other handler (no other handler: none). */
const shipmentTo = (receiver: string | null, pounds: number) =>
  receiver && pounds > 0 ? [{ receiving_handler: receiver, pecan_type: 'improved', pounds }] : [];

/** The handler a made-up filing ships to: the last other active handler by number (no demo agreement moves those). */
async function receiverFor(ctx: AppContext, handlerId: string): Promise<string | null> {
  const other = await ctx.db
    .selectFrom('handlers')
    .select('id')
    .where('id', '<>', handlerId)
    .where('handler_status', '=', 'active')
    .orderBy('handler_number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return other ? String(other.id) : null;
}

/**
 * Every handler some made-up filing ships to: receiverFor names the last active handler by number for every other
 * handler, and the one before it for that last one. Filings settle these handlers' invoices.
 */
export async function receivingHandlers(ctx: Pick<AppContext, 'db'>): Promise<Set<string>> {
  const last = await ctx.db
    .selectFrom('handlers')
    .select('id')
    .where('handler_status', '=', 'active')
    .orderBy('handler_number', 'desc')
    .limit(2)
    .execute();
  return new Set(last.map((h) => String(h.id)));
}

/** A handler's forms 1, 2 and 3 for a past month, filled in and certified two days before the due date. */
export async function fileMonth(
  ctx: AppContext,
  viewer: Viewer,
  h: FilingHandler,
  month: string,
  profile: FilingProfile = DEMO_PROFILE,
): Promise<void> {
  const pkg = await ctx.db
    .selectFrom('reporting_forms_packages as k')
    .innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
    .select(['k.id', 'p.due_date'])
    .where('k.handler_id', '=', viewer.handlerId!)
    .where('p.period_month', '=', month)
    .executeTakeFirstOrThrow();
  const when = at(ctx, `${addDays(String(pkg.due_date), -2)}T15:00:00Z`);
  const formOf = async (table: string) =>
    String(
      (
        await ctx.db
          .selectFrom(table)
          .select('id')
          .where('package_id', '=', pkg.id as string)
          .executeTakeFirstOrThrow()
      ).id,
    );
  const rand = seededRandom(`${h.number}-${month}`);
  const lb: Pounds = (base) => Math.round(base * h.size * (0.7 + rand() * 0.6));
  await patch(when, viewer, 'node--apc_form_1', await formOf('apc_form_1'), {
    attributes: {
      field_date_completed: when.clock.now().toISOString().slice(0, 10),
      ...form1Figures(h, month, lb, await receiverFor(ctx, viewer.handlerId!)),
      ...certifyAs(viewer),
    },
  });
  await fileForm2(when, viewer, await formOf('apc_form_2'), month, rand, lb, profile);
  await fileForm3(when, viewer, await formOf('apc_form_3'), rand, lb, profile);
  if (profile.amendChance > 0 && rand() < profile.amendChance) {
    await amendForm1(at(ctx, `${String(pkg.due_date)}T16:00:00Z`), viewer, month, 'Late weigh tickets');
  }
}

async function fileForm2(
  ctx: AppContext,
  viewer: Viewer,
  formId: string,
  month: string,
  rand: () => number,
  lb: Pounds,
  profile: FilingProfile,
): Promise<void> {
  const imports =
    rand() < profile.importChance ? (profile.maxImports > 1 ? 1 + Math.floor(rand() * profile.maxImports) : 1) : 0;
  for (let i = 0; i < imports; i += 1) {
    const day = `${month}-1${Math.floor(rand() * 9)}`;
    const countries = profile.importCountries;
    const country = countries.length > 1 ? countries[Math.floor(rand() * countries.length)] : countries[0];
    await post(ctx, viewer, 'node--pecans_purchased_non_us', {
      attributes: {
        field_import_date: day,
        field_country_of_origin: country,
        field_inshell_lb: lb(40_000),
        field_shelled_lb: 0,
        field_variety: 'Western Schley',
      },
      relationships: { field_form: link('node--apc_form_2', formId) },
    });
  }
  await patch(ctx, viewer, 'node--apc_form_2', formId, {
    attributes: { field_no_change_flag: imports === 0, ...certifyAs(viewer) },
  });
}

async function fileForm3(
  ctx: AppContext,
  viewer: Viewer,
  formId: string,
  rand: () => number,
  lb: Pounds,
  profile: FilingProfile,
): Promise<void> {
  const markets = profile.exportMarkets.filter(() => rand() < profile.exportChance);
  for (const country of markets) {
    await post(ctx, viewer, 'node--export_by_country', {
      attributes: {
        field_country: country,
        field_inshell_lb: lb(30_000),
        field_shelled_lb: lb(12_000),
        field_substandard_lb: 0,
      },
      relationships: { field_form: link('node--apc_form_3', formId) },
    });
  }
  await patch(ctx, viewer, 'node--apc_form_3', formId, {
    attributes: { field_no_change_flag: markets.length === 0, ...certifyAs(viewer) },
  });
}

/** Invoices due more than a month ago are paid, the day before they fell due. */
export async function payOldInvoices(ctx: AppContext, currentMonth: string): Promise<void> {
  const cutoff = `${addMonths(currentMonth, -1)}-01`;
  const invoices = await ctx.db
    .selectFrom('invoices')
    .select(['id', 'due_date', 'invoice_number'])
    .where('due_date', '<', cutoff)
    .where('invoice_status', '<>', 'paid')
    .execute();
  for (const inv of invoices) {
    await markInvoicePaid(
      { ctx: at(ctx, `${String(inv.due_date)}T10:00:00Z`), viewer: LOADER },
      inv.id as string,
      String(inv.due_date),
      `ACH-${String(inv.invoice_number)}`,
    );
  }
}

/** An amendment of a certified form 1, with more receipts, certified: its invoice is adjusted or re-issued. */
export async function amendForm1(ctx: AppContext, viewer: Viewer, month: string, reason: string): Promise<void> {
  const current = await ctx.db
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select(['f.id', 'f.receipts_by_variety'])
    .where('f.handler_id', '=', viewer.handlerId!)
    .where('p.period_month', '=', month)
    .where('f.form_status', '=', 'certified')
    .executeTakeFirst();
  if (!current) return;
  const rows = JSON.parse(String(current.receipts_by_variety)) as Array<{ variety: string; pounds: number }>;
  await post(ctx, viewer, 'node--apc_form_1', {
    attributes: {
      field_receipts_by_variety: rows.map((r, i) => (i === 0 ? { ...r, pounds: r.pounds + 12_500 } : r)),
      field_amendment_reason: reason,
      ...certifyAs(viewer),
    },
    relationships: { field_amendment_of: link('node--apc_form_1', String(current.id)) },
  });
}

/** A handler's certified year-end form for a season, filed on 8 September after it ends. */
export async function fileYearEnd(
  ctx: AppContext,
  viewer: Viewer,
  h: FilingHandler,
  seasonId: string,
  augAmendRequired: boolean,
): Promise<void> {
  const season = await ctx.db
    .selectFrom('seasons')
    .select(['title', 'season_end_date'])
    .where('id', '=', seasonId)
    .executeTakeFirstOrThrow();
  const rand = seededRandom(`${h.number}-${String(season.title)}-year-end`);
  const lb: Pounds = (base) => Math.round(base * h.size * (0.8 + rand() * 0.4));
  const shelled = lb(160_000);
  const halves = Math.round(shelled * 0.55);
  const pieces = Math.round(shelled * 0.35);
  const inventory = { improved: lb(300_000), native: lb(90_000), substandard: h.substandard ? lb(9_000) : 0 };
  // The answer follows the figures (986.175(a)): "no" only when the August Form 1 shows the same inventory.
  const august = await ctx.db
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select(['f.inventory_inshell', 'f.inventory_shelled'])
    .where('f.handler_id', '=', viewer.handlerId!)
    .where('f.form_status', '=', 'certified')
    .where('p.period_month', '=', String(season.season_end_date).slice(0, 7))
    .executeTakeFirst();
  const differs =
    august !== undefined &&
    (Number(august.inventory_inshell) !== inventory.improved + inventory.native + inventory.substandard ||
      Number(august.inventory_shelled) !== shelled);
  await post(at(ctx, `${String(season.season_end_date).slice(0, 4)}-09-08T14:00:00Z`), viewer, 'node--apc_form_5', {
    attributes: {
      field_inshell_inventory_improved: inventory.improved,
      field_inshell_inventory_native: inventory.native,
      field_inshell_inventory_substandard: inventory.substandard,
      field_inshell_committed_domestic: lb(120_000),
      field_inshell_committed_export: lb(60_000),
      field_avg_price_paid_improved: '2.3475',
      field_avg_price_paid_native: '1.4025',
      field_avg_price_paid_substandard: h.substandard ? '0.5550' : '0.0000',
      field_shelled_inventory: shelled,
      field_shelled_committed_domestic: Math.round(shelled * 0.3),
      field_shelled_committed_export: Math.round(shelled * 0.2),
      field_shelled_halves: halves,
      field_shelled_pieces: pieces,
      field_shelled_wip: shelled - halves - pieces,
      field_shellout_yield: '0.4800',
      field_handled_domestic_improved: lb(1_900_000),
      field_handled_domestic_native: lb(600_000),
      field_handled_domestic_substandard: h.substandard ? lb(40_000) : 0,
      field_aug_form_1_amend_reqd: augAmendRequired || differs,
      ...certifyAs(viewer),
    },
    relationships: { field_season: link('node--season', seasonId) },
  });
}

/**
 * A small season for the report tests, filed through the real workflows (open period, edit, certify, amend).
 * Test support only. The figures (worked by hand in reports.test.ts):
 *
 * September 2025, Form 1 (certified by 101, 102, 103; 104's stays a draft):
 *   improved 1500 + 2000 + 3000 = 6500 (3 handlers)   native 200 + 300 + 100 = 600 (3)
 *   substandard 50 + 0 + 70 = 120 (2: withheld)          shipments inshell 300 + 400 + 500 = 1200 (3)
 *   shipments shelled 100 + 0 + 50 (2: withheld)          inventory inshell 1000 + 1500 + 2000 = 4500 (3)
 * October 2025, Form 1 (all four certified; 101 amended its improved receipts from 100 to 600):
 *   improved 600 + 200 + 300 + 400 = 1500 (4)           native 10 + 20 + 30 + 0 = 60 (3)    substandard 0
 * September 2025, Form 3: MX inshell 1000 + 500 + 250 = 1750 (3), MX shelled 100 (1: withheld),
 *   CN inshell 300 + 200 = 500 (2: withheld)
 * Season 2025-2026, Form 5: inshell improved 1000 + 2000 + 3000 = 6000 (3), inshell native 500 (1: withheld)
 */
import type { Viewer } from '../context.js';
import type { Db } from '../db/database.js';
import { fromApi } from '../jsonapi/codecs.js';
import type { Row, WriteInput } from '../jsonapi/resource.js';
import type { AppContext } from '../context.js';
import { DEMO_STAFF_TOTP_SECRET } from '../demo/data.js';
import { enrolWithSecret } from '../oauth/mfa.js';
import { hashPassword } from '../users/passwords.js';
import { loadRow, type Actor } from '../workflows/common.js';
import { createForm5 } from '../workflows/form5.js';
import { openPeriod } from '../workflows/seasons.js';
import { createSubRecord } from '../workflows/sub-records.js';
import { createAmendment, updateDraft, VERSIONED_FORMS } from '../workflows/versioned-forms.js';

export const PASSWORD = 'demo-pecans-2026';
export const HANDLERS = ['h1', 'h2', 'h3', 'h4'] as const;
export type HandlerKey = (typeof HANDLERS)[number];

export interface Fixture {
  staff: Actor;
  handler: Record<HandlerKey, Actor>;
  seasonId: string;
  periods: { sep: string; oct: string };
  /** 101's superseded and current October forms 1. */
  octH1: { original: string; amendment: string };
}

const stamp = '2025-08-01T00:00:00+00:00';
const node = (id: string, title: string) => ({ id, title, created: stamp, changed: stamp });

type Pounds = Record<string, number>;
type Variety = { variety: string; pounds: number };

const CERTIFY = { field_certified: true, field_certification_name: 'Test Signer' };

/** The handler h1's inter-handler shipments go to: a line names a handler by its UUID, which h1-h5 are not. */
export const TRANSFER_RECEIVER = '00000000-0000-4000-8000-000000000106';

/**
 * A form 1's write. Form 1's inter-handler shipments are lines per receiver and type (decision 0010): a fixture's
 * `interhandler_shipped` pounds become one line of improved pecans to `receiver`.
 */
export function form1Input(
  pounds: Pounds,
  varieties: Variety[],
  certify = true,
  receiver = TRANSFER_RECEIVER,
): WriteInput {
  const { interhandler_shipped: shipped, ...own } = pounds;
  const lines = shipped ? [{ receiving_handler: receiver, pecan_type: 'improved', pounds: shipped }] : [];
  return {
    values: { receipts_by_variety: JSON.stringify(varieties), interhandler_shipments: JSON.stringify(lines), ...own },
    attributes: {
      field_receipts_by_variety: varieties,
      field_interhandler_shipments: lines,
      ...Object.fromEntries(Object.entries(own).map(([k, v]) => [`field_${k}`, v])),
      ...(certify ? CERTIFY : {}),
    },
    relationships: {},
    meta: {},
  };
}

async function draftOf(db: Db, table: string, handlerId: string, periodId: string): Promise<Row> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('handler_id', '=', handlerId)
    .where('period_id', '=', periodId)
    .where('form_status', '=', 'draft')
    .executeTakeFirstOrThrow();
  return loadRow(db, table, row.id);
}

async function fileForm1(
  a: Actor,
  periodId: string,
  pounds: Pounds,
  varieties: Variety[],
  certify = true,
): Promise<string> {
  const row = await draftOf(a.ctx.db, 'apc_form_1', a.viewer.handlerId!, periodId);
  await updateDraft(a, VERSIONED_FORMS.apc_form_1, row, form1Input(pounds, varieties, certify));
  return String(row.id);
}

async function fileForm3(
  a: Actor,
  periodId: string,
  rows: Array<{ country: string; inshell_lb: number; shelled_lb: number; substandard_lb: number }>,
): Promise<void> {
  const form = await draftOf(a.ctx.db, 'apc_form_3', a.viewer.handlerId!, periodId);
  for (const r of rows) {
    await createSubRecord(a, 'export_by_country', {
      values: r,
      attributes: {
        field_country: r.country,
        field_inshell_lb: r.inshell_lb,
        field_shelled_lb: r.shelled_lb,
        field_substandard_lb: r.substandard_lb,
      },
      relationships: { field_form: { type: 'node--apc_form_3', id: String(form.id) } },
      meta: {},
    });
  }
  const fresh = await loadRow(a.ctx.db, 'apc_form_3', form.id);
  await updateDraft(a, VERSIONED_FORMS.apc_form_3, fresh, {
    values: {},
    attributes: { ...CERTIFY },
    relationships: {},
    meta: {},
  });
}

/**
 * Form 5 is certified from its season's last day on: the fixture files it on 8 September after it, as the demo does,
 * on a clock of its own (the demo's `at` never runs past the real clock; this season may end after today).
 */
async function fileForm5(a: Actor, seasonId: string, pounds: Pounds): Promise<void> {
  const season = await loadRow(a.ctx.db, 'seasons', seasonId);
  const filedOn = `${String(season.season_end_date).slice(0, 4)}-09-08T14:00:00Z`;
  await createForm5(
    { ...a, ctx: { ...a.ctx, clock: { now: () => new Date(filedOn) } } },
    {
      values: { ...pounds, aug_form_1_amend_reqd: fromApi('bool', false, a.ctx.dialect) },
      attributes: {
        ...Object.fromEntries(Object.entries(pounds).map(([k, v]) => [`field_${k}`, v])),
        field_aug_form_1_amend_reqd: false,
        ...CERTIFY,
      },
      relationships: { field_season: { type: 'node--season', id: seasonId } },
      meta: {},
    },
  );
}

/** Handlers 101 to 104 (active) and 105 (inactive), users `staff` and `alice` (101), and the season's filings. */
export async function seedReportingData(ctx: AppContext): Promise<Fixture> {
  const db = ctx.db;
  // Multi-row inserts name every column in every row: SQLite has no DEFAULT in a VALUES list.
  const flag = (v: boolean) => (ctx.dialect === 'sqlite' ? (v ? 1 : 0) : v);
  const handlerRow = (id: string, title: string, number: string, status = 'active', directory = false) => ({
    ...node(id, title),
    handler_number: number,
    handler_status: status,
    show_in_handler_directory: flag(directory),
  });
  await db
    .insertInto('handlers')
    .values([
      handlerRow('h1', 'Riverbend Pecan Co.', '101', 'active', true),
      handlerRow('h2', 'Mesa Valley Pecans', '102', 'active', true),
      handlerRow('h3', 'Gulf Coast Shellers', '103'),
      handlerRow('h4', 'Pine Hill Pecans', '104'),
      handlerRow('h5', 'Closed Pecan Co.', '105', 'inactive'),
      handlerRow(TRANSFER_RECEIVER, 'Cross Creek Pecans', '106'),
    ])
    .execute();
  const pass = await hashPassword(PASSWORD);
  await db
    .insertInto('users')
    .values([
      { ...node('u-staff', ''), name: 'staff', role: 'staff', handler_id: null, pass_hash: pass, first_name: 'Sam' },
      {
        ...node('u-alice', ''),
        name: 'alice',
        role: 'handler',
        handler_id: 'h1',
        pass_hash: pass,
        first_name: 'Alice',
      },
    ])
    .execute();
  // Staff sign in with a second factor: enrolled with the demo key (test-support's staffCode gives the code).
  await enrolWithSecret(db, 'u-staff', DEMO_STAFF_TOTP_SECRET, ctx.clock.now());
  const viewer = (userId: string, handlerId: string | null): Viewer => ({
    userId,
    name: userId,
    role: handlerId ? 'handler' : 'staff',
    handlerId,
  });
  const staff: Actor = { ctx, viewer: viewer('u-staff', null) };
  const handler = Object.fromEntries(HANDLERS.map((h) => [h, { ctx, viewer: viewer(`u-${h}`, h) }])) as Record<
    HandlerKey,
    Actor
  >;

  const sep = (await openPeriod(staff, '2025-09')).periodId;
  const oct = (await openPeriod(staff, '2025-10')).periodId;
  const seasonId = String((await loadRow(db, 'reporting_periods', sep)).season_id);

  await fileForm1(
    handler.h1,
    sep,
    {
      receipts_native: 200,
      receipts_substandard: 50,
      shipments_inshell: 300,
      shipments_shelled: 100,
      interhandler_shipped: 40,
      inventory_inshell: 1000,
      inventory_shelled: 200,
      committed_domestic: 100,
      committed_export: 50,
    },
    [
      { variety: 'Desirable', pounds: 1000 },
      { variety: 'Stuart', pounds: 500 },
    ],
  );
  await fileForm1(
    handler.h2,
    sep,
    {
      receipts_native: 300,
      shipments_inshell: 400,
      interhandler_received: 40,
      inventory_inshell: 1500,
    },
    [{ variety: 'Pawnee', pounds: 2000 }],
  );
  await fileForm1(
    handler.h3,
    sep,
    {
      receipts_native: 100,
      receipts_substandard: 70,
      shipments_inshell: 500,
      shipments_shelled: 50,
      inventory_inshell: 2000,
      inventory_shelled: 100,
      committed_domestic: 200,
    },
    [{ variety: 'Desirable', pounds: 3000 }],
  );
  // 104 saves a draft but never certifies it: it must not count.
  await fileForm1(handler.h4, sep, { receipts_native: 88888 }, [{ variety: 'Desirable', pounds: 99999 }], false);

  const octOriginal = await fileForm1(handler.h1, oct, { receipts_native: 10, shipments_inshell: 100 }, [
    { variety: 'Desirable', pounds: 100 },
  ]);
  await fileForm1(handler.h2, oct, { receipts_native: 20, shipments_inshell: 100 }, [
    { variety: 'Desirable', pounds: 200 },
  ]);
  await fileForm1(handler.h3, oct, { receipts_native: 30, shipments_inshell: 100 }, [
    { variety: 'Desirable', pounds: 300 },
  ]);
  await fileForm1(handler.h4, oct, { shipments_inshell: 100 }, [{ variety: 'Desirable', pounds: 400 }]);
  // 101 amends October: 600 lb improved instead of 100; the first version becomes superseded.
  const amended = form1Input({}, [{ variety: 'Desirable', pounds: 600 }]);
  const amendment = await createAmendment(handler.h1, VERSIONED_FORMS.apc_form_1, {
    ...amended,
    attributes: { ...amended.attributes, field_amendment_reason: 'Late weigh tickets' },
    relationships: { field_amendment_of: { type: 'node--apc_form_1', id: octOriginal } },
  });

  await fileForm3(handler.h1, sep, [
    { country: 'MX', inshell_lb: 1000, shelled_lb: 100, substandard_lb: 0 },
    { country: 'CN', inshell_lb: 300, shelled_lb: 0, substandard_lb: 0 },
  ]);
  await fileForm3(handler.h2, sep, [
    { country: 'MX', inshell_lb: 500, shelled_lb: 0, substandard_lb: 0 },
    { country: 'CN', inshell_lb: 200, shelled_lb: 0, substandard_lb: 0 },
  ]);
  await fileForm3(handler.h3, sep, [{ country: 'MX', inshell_lb: 250, shelled_lb: 0, substandard_lb: 0 }]);

  await fileForm5(handler.h1, seasonId, { inshell_inventory_improved: 1000, inshell_inventory_native: 500 });
  await fileForm5(handler.h2, seasonId, { inshell_inventory_improved: 2000 });
  await fileForm5(handler.h3, seasonId, { inshell_inventory_improved: 3000 });

  return { staff, handler, seasonId, periods: { sep, oct }, octH1: { original: octOriginal, amendment } };
}

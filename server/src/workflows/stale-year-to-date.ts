import {
  FORM_1_CARRIED_FIELDS,
  FORM_1_MONTH_FIGURE_FIELDS,
  form1ContextMonths,
  staleForm1Months,
  type CertifiedForm1Month,
  type Form1CarriedField,
  type StaleFigure,
  type StaleForm1Month,
} from '@pecan/contract';
import type { ApcForm1Table, PortalDb } from '../db/portal-tables.js';
import type { Row } from '../jsonapi/resource.js';
import { form1Entered } from './form-figures.js';

/**
 * Certified forms 1 of a month whose previous-month or season-to-date figures an amendment of an earlier month has
 * made stale (contract: staleForm1Months), by handler: of every handler, or of `handlerId` alone. The certified copy
 * stays as it is; the submissions board flags it with the corrected figures, and an amendment of the month recomputes
 * them.
 *
 * The board asks this of every handler every 15 s on deadline day, so it reads only what the check uses: the months of
 * handlers with a certified form 1 of `month` (the only month checked), their own figures and carried figures, not
 * whole rows (at 1,000 handlers: 2,000 rows of 60 columns and a 1,000-id list were most of the board's time).
 */
export async function staleForm1OfMonth(
  db: PortalDb,
  month: string,
  handlerId?: string,
): Promise<Map<string, StaleForm1Month>> {
  const certified = (months: string[]) => {
    const q = db
      .selectFrom('apc_form_1 as f')
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select(['f.id', 'f.handler_id', 'p.period_month'])
      .where('f.form_status', '=', 'certified')
      .where('p.period_month', 'in', months);
    return handlerId === undefined ? q : q.where('f.handler_id', '=', handlerId);
  };
  const ofMonth = (await certified([month])
    .select([...FORM_1_MONTH_FIGURE_FIELDS, ...FORM_1_CARRIED_FIELDS].map(form1Column))
    .execute()) as Row[];
  if (ofMonth.length === 0) return new Map();
  // The earlier months' carried figures are not read (only `month` is checked), so they are not selected: those of
  // every earlier month of August doubled the rows' size.
  const earlier = (await certified(form1ContextMonths(month))
    .select(FORM_1_MONTH_FIGURE_FIELDS.map(form1Column))
    .where('f.handler_id', 'in', (eb) =>
      eb
        .selectFrom('apc_form_1 as m')
        .innerJoin('reporting_periods as mp', 'mp.id', 'm.period_id')
        .select('m.handler_id')
        .where('mp.period_month', '=', month)
        .where('m.form_status', '=', 'certified'),
    )
    .execute()) as Row[];
  const byHandler = new Map<string, CertifiedForm1Month[]>();
  for (const r of [...ofMonth, ...earlier]) {
    const list = byHandler.get(String(r.handler_id));
    if (list) list.push(certifiedForm1Month(r));
    else byHandler.set(String(r.handler_id), [certifiedForm1Month(r)]);
  }
  const stale = new Map<string, StaleForm1Month>();
  for (const [handler, months] of byHandler) {
    const found = staleForm1Months(months, month).find((m) => m.month === month);
    if (found) stale.set(handler, found);
  }
  return stale;
}

/**
 * Keeps the check's answer for every certified form 1 of `handlerId` (of every handler without it) in
 * form1_stale_year_to_date, so that the board reads a month's stale forms instead of running the check for every
 * handler at every poll (the `stale-kept` mechanism, performance/mechanisms.ts). A month's answer changes only when a
 * form 1 of a month it carries from is certified, and each certification calls this in its own transaction
 * (workflows/versioned-forms.ts, `certify`). The whole handler is checked again, not only the months after the one
 * certified: a handler's certified forms 1 are a few dozen small rows, read once per certification.
 */
export async function keepStaleForm1(db: PortalDb, handlerId?: string): Promise<void> {
  let q = db
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select(['f.id', 'f.handler_id', 'f.period_id', 'p.period_month'])
    .select([...FORM_1_MONTH_FIGURE_FIELDS, ...FORM_1_CARRIED_FIELDS].map(form1Column))
    .where('f.form_status', '=', 'certified');
  if (handlerId !== undefined) q = q.where('f.handler_id', '=', handlerId);
  const rows = (await q.execute()) as Row[];
  const byHandler = new Map<string, Row[]>();
  for (const r of rows) {
    const list = byHandler.get(String(r.handler_id));
    if (list) list.push(r);
    else byHandler.set(String(r.handler_id), [r]);
  }
  const kept = [...byHandler.values()].flatMap((ofHandler) => {
    const periodOf = new Map(ofHandler.map((r) => [String(r.id), String(r.period_id)]));
    return staleForm1Months(ofHandler.map(certifiedForm1Month)).map((m) => ({
      form_id: m.id,
      handler_id: String(ofHandler[0].handler_id),
      period_id: periodOf.get(m.id)!,
      figures: JSON.stringify(m.figures),
    }));
  });
  let del = db.deleteFrom('form1_stale_year_to_date');
  if (handlerId !== undefined) del = del.where('handler_id', '=', handlerId);
  await del.execute();
  // In slices: a backfill of every handler would pass more values than a statement takes.
  for (let i = 0; i < kept.length; i += 500)
    await db
      .insertInto('form1_stale_year_to_date')
      .values(kept.slice(i, i + 500))
      .execute();
}

/** The kept answers of a period (of `handlerId` alone, if given): the stale figures by handler. */
export async function keptStaleForm1OfPeriod(
  db: PortalDb,
  periodId: string,
  handlerId?: string,
): Promise<Map<string, StaleFigure[]>> {
  let q = db.selectFrom('form1_stale_year_to_date').select(['handler_id', 'figures']).where('period_id', '=', periodId);
  if (handlerId !== undefined) q = q.where('handler_id', '=', handlerId);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.handler_id, JSON.parse(r.figures) as StaleFigure[]]));
}

const form1Column = (column: string) => `f.${column}` as `f.${keyof ApcForm1Table}`;

export function certifiedForm1Month(row: Row): CertifiedForm1Month {
  const carried = {} as Record<Form1CarriedField, number>;
  for (const f of FORM_1_CARRIED_FIELDS) carried[f] = Number(row[f] ?? 0);
  return { id: String(row.id), month: String(row.period_month), entered: form1Entered(row), carried };
}

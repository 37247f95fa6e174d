import {
  FORM_1_CARRIED_FIELDS,
  FORM_1_MONTH_FIGURE_FIELDS,
  form1ContextMonths,
  staleForm1Months,
  type CertifiedForm1Month,
  type Form1CarriedField,
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

const form1Column = (column: string) => `f.${column}` as `f.${keyof ApcForm1Table}`;

export function certifiedForm1Month(row: Row): CertifiedForm1Month {
  const carried = {} as Record<Form1CarriedField, number>;
  for (const f of FORM_1_CARRIED_FIELDS) carried[f] = Number(row[f] ?? 0);
  return { id: String(row.id), month: String(row.period_month), entered: form1Entered(row), carried };
}

import {
  FORM_1_CARRIED_FIELDS,
  form1ContextMonths,
  staleForm1Months,
  type CertifiedForm1Month,
  type Form1CarriedField,
  type StaleForm1Month,
} from '@pecan/contract';
import type { PortalDb } from '../db/portal-tables.js';
import type { Row } from '../jsonapi/resource.js';
import { form1Entered } from './form-figures.js';

/**
 * Certified forms 1 of a month whose previous-month or season-to-date figures an amendment of an earlier month has
 * made stale (contract: staleForm1Months), by handler. The certified copy stays as it is; the submissions board
 * flags it with the corrected figures, and an amendment of the month recomputes them.
 */
export async function staleForm1OfMonth(
  db: PortalDb,
  month: string,
  handlerIds: readonly string[],
): Promise<Map<string, StaleForm1Month>> {
  const stale = new Map<string, StaleForm1Month>();
  if (handlerIds.length === 0) return stale;
  const rows = (await db
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .selectAll('f')
    .select('p.period_month')
    .where('f.form_status', '=', 'certified')
    .where('f.handler_id', 'in', handlerIds)
    .where('p.period_month', 'in', [month, ...form1ContextMonths(month)])
    .execute()) as Row[];
  const byHandler = new Map<string, CertifiedForm1Month[]>();
  for (const r of rows) {
    const list = byHandler.get(String(r.handler_id)) ?? [];
    list.push(certifiedForm1Month(r));
    byHandler.set(String(r.handler_id), list);
  }
  for (const [handlerId, months] of byHandler) {
    const found = staleForm1Months(months, month).find((m) => m.month === month);
    if (found) stale.set(handlerId, found);
  }
  return stale;
}

export function certifiedForm1Month(row: Row): CertifiedForm1Month {
  return {
    id: String(row.id),
    month: String(row.period_month),
    entered: form1Entered(row),
    carried: Object.fromEntries(FORM_1_CARRIED_FIELDS.map((f) => [f, Number(row[f] ?? 0)])) as Record<
      Form1CarriedField,
      number
    >,
  };
}

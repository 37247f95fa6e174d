import type { PortalDb } from '../../../db/portal-tables.js';
import { exportRowsByHandler, monthlyFormTotalsByHandlerAndMonth, yearEndByHandler } from '../aggregates.js';
import {
  EXPORT_KINDS,
  exportAtom,
  f1Atom,
  f2Atom,
  f5Atom,
  FLOW_METRICS,
  FOREIGN_METRICS,
  STOCK_METRICS,
  YEAR_END_METRICS,
  type SeasonAtoms,
} from './season-model.js';

/**
 * A season's atoms from the handlers' current certified versions, each handler's contribution kept (four grouped
 * queries). Zero contributions are left out, so an atom's handlers are the ones who reported it non-zero.
 */
export async function loadSeasonAtoms(db: PortalDb, seasonId: string, months: readonly string[]): Promise<SeasonAtoms> {
  const f1Metrics = [...FLOW_METRICS, ...STOCK_METRICS];
  const [form1, form2, exports, yearEnd] = await Promise.all([
    monthlyFormTotalsByHandlerAndMonth(db, 'apc_form_1', f1Metrics, { months }),
    monthlyFormTotalsByHandlerAndMonth(db, 'apc_form_2', FOREIGN_METRICS, { months }),
    exportRowsByHandler(db, months),
    yearEndByHandler(db, seasonId),
  ]);
  const atoms: SeasonAtoms = new Map();
  const add = (key: string, handler: string, value: number) => {
    if (!atoms.has(key)) atoms.set(key, new Map());
    if (value !== 0) atoms.get(key)!.set(handler, (atoms.get(key)!.get(handler) ?? 0) + value);
  };
  for (const [handler, byMonth] of form1)
    for (const [month, t] of byMonth) for (const m of f1Metrics) add(f1Atom(m, month), handler, t.figures[m].value);
  for (const [handler, byMonth] of form2)
    for (const [month, t] of byMonth)
      for (const m of FOREIGN_METRICS) add(f2Atom(m, month), handler, t.figures[m].value);
  for (const row of exports)
    for (const kind of EXPORT_KINDS) add(exportAtom(kind, row.country, row.month), row.handler, row.pounds[kind]);
  for (const [handler, t] of yearEnd) for (const m of YEAR_END_METRICS) add(f5Atom(m), handler, t.figures[m].value);
  return atoms;
}

import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { FORM_1_METRICS, monthlyFormTotalsByMonth, type Form1Metric, type Totals } from '../workflows/reports/aggregates.js';
import { publishFigure, type PublishedFigure } from '../workflows/reports/confidentiality.js';
import { periodMonthsOfSeason } from '../workflows/reports/position-reports.js';

/**
 * The industry's monthly figures of a season for the analytics charts: receipts, shipments and month-end inventory.
 * A month shows figures only once staff have published its position report, and every figure obeys the
 * three-handler rule; a sum with a withheld part is withheld too, so no part can be worked out by subtraction.
 */
export interface IndustryMonth {
  month: string;
  published: boolean;
  reporting_handlers: number;
  receipts_total: PublishedFigure;
  /** Receipts without substandard pecans, which few handlers receive: a figure that can usually be shown. */
  receipts_improved_native: PublishedFigure;
  shipments_total: PublishedFigure;
  inventory_inshell: PublishedFigure;
}

const NOT_PUBLISHED: PublishedFigure = { value: null, withheld: false, handlerCount: 0 };

/** The sum of published parts; withheld when any part is. */
export function sumOfFigures(parts: PublishedFigure[]): PublishedFigure {
  if (parts.some((p) => p.withheld)) return { value: null, withheld: true, handlerCount: Math.max(...parts.map((p) => p.handlerCount)) };
  return { value: parts.reduce((sum, p) => sum + (p.value ?? 0), 0), withheld: false, handlerCount: Math.max(0, ...parts.map((p) => p.handlerCount)) };
}

function monthFigures(month: string, totals: Totals<Form1Metric> | undefined): IndustryMonth {
  const f = (m: Form1Metric) => publishFigure(totals?.figures[m]);
  return {
    month, published: true, reporting_handlers: totals?.reportingHandlers ?? 0,
    receipts_total: sumOfFigures([f('receipts_improved'), f('receipts_native'), f('receipts_substandard')]),
    receipts_improved_native: sumOfFigures([f('receipts_improved'), f('receipts_native')]),
    shipments_total: sumOfFigures([f('shipments_inshell'), f('shipments_shelled')]),
    inventory_inshell: f('inventory_inshell'),
  };
}

export async function industryMonthlyFigures(db: Db, seasonId: string): Promise<IndustryMonth[]> {
  const months = await periodMonthsOfSeason(db, seasonId);
  const published = new Set((await db.selectFrom('monthly_position_reports as r').innerJoin('reporting_periods as p', 'p.id', 'r.period_id')
    .select('p.period_month').where('p.season_id', '=', seasonId).where('r.publish_to_portal', '=', sql<boolean>`true`).execute())
    .map((r) => String(r.period_month)));
  const shown = months.filter((m) => published.has(m));
  const totals = await monthlyFormTotalsByMonth(db, 'apc_form_1', FORM_1_METRICS, { months: shown });
  return months.map((month) => (published.has(month)
    ? monthFigures(month, totals.get(month))
    : {
      month, published: false, reporting_handlers: 0, receipts_total: NOT_PUBLISHED, receipts_improved_native: NOT_PUBLISHED,
      shipments_total: NOT_PUBLISHED, inventory_inshell: NOT_PUBLISHED,
    }));
}

import { industrySeasonFigures } from '../workflows/reports/analytics.js';
import type { PublishedFigure } from '../workflows/reports/confidentiality.js';
import type { PublishedBook } from '../workflows/reports/disclosure/published.js';
import { f1Atom, figureKeys } from '../workflows/reports/disclosure/season-model.js';
import type { PortalDb } from '../db/portal-tables.js';

/**
 * The industry's monthly figures of a season for the analytics charts: receipts, shipments and month-end inventory.
 * A month shows figures only once staff have published its figures (its position report), and then exactly as
 * published: frozen, and withheld where disclosure control withheld them (the charts' sums are published figures of
 * their own, planned with the rest; see docs/DISCLOSURE-CONTROL.md). A later amendment moves nothing here until
 * staff publish a revision.
 */
export interface IndustryMonth {
  month: string;
  published: boolean;
  reporting_handlers: number;
  receipts_total: PublishedFigure;
  /** Receipts without substandard pecans, which few handlers receive: a figure that can usually be shown. */
  receipts_improved_native: PublishedFigure;
  /** Inshell shipments: form 1 keeps inshell and shelled pounds apart (986.177(a)); no figure adds them. */
  shipments_inshell: PublishedFigure;
  inventory_inshell: PublishedFigure;
}

const NOT_PUBLISHED: PublishedFigure = { value: null, withheld: false, handlerCount: 0 };

/** The sum of published parts; withheld when any part is. */
export function sumOfFigures(parts: PublishedFigure[]): PublishedFigure {
  if (parts.some((p) => p.withheld))
    return { value: null, withheld: true, handlerCount: Math.max(...parts.map((p) => p.handlerCount)) };
  return {
    value: parts.reduce((sum, p) => sum + (p.value ?? 0), 0),
    withheld: false,
    handlerCount: Math.max(0, ...parts.map((p) => p.handlerCount)),
  };
}

function monthFigures(month: string, book: PublishedBook, reporting: number): IndustryMonth {
  return {
    month,
    published: true,
    reporting_handlers: reporting,
    receipts_total: book.figure(figureKeys.chart('receipts_total', month)),
    receipts_improved_native: book.figure(figureKeys.chart('receipts_improved_native', month)),
    shipments_inshell: book.figure(f1Atom('shipments_inshell', month)),
    inventory_inshell: book.figure(f1Atom('inventory_inshell', month)),
  };
}

export async function industryMonthlyFigures(db: PortalDb, seasonId: string): Promise<IndustryMonth[]> {
  const industry = await industrySeasonFigures(db, seasonId);
  return industry.months.map((month) => {
    const book = industry.books.get(month);
    return book
      ? monthFigures(month, book, industry.reportingHandlers.get(month) ?? 0)
      : {
          month,
          published: false,
          reporting_handlers: 0,
          receipts_total: NOT_PUBLISHED,
          receipts_improved_native: NOT_PUBLISHED,
          shipments_inshell: NOT_PUBLISHED,
          inventory_inshell: NOT_PUBLISHED,
        };
  });
}

import { earlierPeriodsOfSeason, isPeriodMonth } from '@pecan/contract';
import type { PortalDb } from '../../db/portal-tables.js';
import type { Row } from '../../jsonapi/resource.js';
import { ApiError } from '../../lib/errors.js';
import { renderPdf } from '../../render/pdf-threads.js';
import {
  type AnnualPositionReportInput,
  type ExportCountryFigures,
  type MonthlyPositionReportInput,
  type PeriodFigures,
} from '../../render/index.js';
import { assertStaff, dbBool, dbOf, isTrue, loadRow, todayOf, updateRow, type Actor } from '../common.js';
import {
  exportTotalsByCountry,
  FORM_1_METRICS,
  FORM_2_METRICS,
  monthlyFormTotals,
  reportingHandlerCount,
  yearEndTotals,
  type CountryTotals,
  type Form1Metric,
  type Form2Metric,
  type Form5Metric,
  type Totals,
} from './aggregates.js';
import type { PublishedFigure } from './confidentiality.js';
import {
  currentPublication,
  monthScope,
  plannedFigures,
  publishFigures,
  SEASON_SCOPE,
  seasonPublications,
} from './disclosure/publications.js';
import { PublishedBook } from './disclosure/published.js';
import { exportAtom, f1Atom, f2Atom, f5Atom, figureKeys } from './disclosure/season-model.js';

/** The footnote of every published document on how figures are withheld (docs/DISCLOSURE-CONTROL.md). */
export const SUPPRESSION_NOTE =
  'Figures are withheld when fewer than three handlers reported them or one handler reported most of them, ' +
  'and where needed other figures are withheld too, so that no withheld figure can be worked out from the published ones.';
import { PDF_MIME, upsertDocumentNode, type StoredDocument } from './documents.js';

export const MONTHLY_REPORT_TYPE = 'node--monthly_position_report';
export const ANNUAL_REPORT_TYPE = 'node--annual_position_report';

/** The reporting period of a month, or 422 naming the body member (the council routes pass it as `period_month`). */
export async function periodOfMonth(db: PortalDb, periodMonth: unknown): Promise<Row> {
  if (!isPeriodMonth(periodMonth)) {
    throw new ApiError(422, 'period_month must be a month written YYYY-MM, such as "2026-10".', {
      source: { pointer: '/period_month' },
    });
  }
  const period = await db
    .selectFrom('reporting_periods')
    .selectAll()
    .where('period_month', '=', periodMonth)
    .executeTakeFirst();
  if (!period)
    throw new ApiError(422, `There is no reporting period for ${periodMonth}: open the period first.`, {
      source: { pointer: '/period_month' },
    });
  return period;
}

/** A season by id, or 422 naming the body member `season_id`. */
export async function seasonById(db: PortalDb, seasonId: unknown): Promise<Row> {
  const season =
    typeof seasonId === 'string' && seasonId !== ''
      ? await db.selectFrom('seasons').selectAll().where('id', '=', seasonId).executeTakeFirst()
      : undefined;
  if (!season)
    throw new ApiError(422, `There is no season with id ${JSON.stringify(seasonId ?? null)}.`, {
      source: { pointer: '/season_id' },
    });
  return season;
}

/** The months of a season that have a reporting period, in order. */
export async function periodMonthsOfSeason(db: PortalDb, seasonId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('reporting_periods')
    .select('period_month')
    .where('season_id', '=', seasonId)
    .orderBy('period_month')
    .execute();
  return rows.map((r) => String(r.period_month));
}

/** The aggregates of one month and of its season to date (this month included). */
export interface MonthlyPositionFigures {
  month: string;
  reportingHandlers: number;
  form1: { period: Totals<Form1Metric>; seasonToDate: Totals<Form1Metric> };
  form2: { period: Totals<Form2Metric>; seasonToDate: Totals<Form2Metric> };
  exports: { period: CountryTotals[]; seasonToDate: CountryTotals[] };
}

export async function monthlyPositionFigures(db: PortalDb, periodMonth: string): Promise<MonthlyPositionFigures> {
  const toDate = [...earlierPeriodsOfSeason(periodMonth), periodMonth];
  const month = [periodMonth];
  const [f1, f1Std, f2, f2Std, ex, exStd, reporting] = await Promise.all([
    monthlyFormTotals(db, 'apc_form_1', FORM_1_METRICS, { months: month }),
    monthlyFormTotals(db, 'apc_form_1', FORM_1_METRICS, { months: toDate }),
    monthlyFormTotals(db, 'apc_form_2', FORM_2_METRICS, { months: month }),
    monthlyFormTotals(db, 'apc_form_2', FORM_2_METRICS, { months: toDate }),
    exportTotalsByCountry(db, month),
    exportTotalsByCountry(db, toDate),
    reportingHandlerCount(db, month),
  ]);
  return {
    month: periodMonth,
    reportingHandlers: reporting,
    form1: { period: f1, seasonToDate: f1Std },
    form2: { period: f2, seasonToDate: f2Std },
    exports: { period: ex, seasonToDate: exStd },
  };
}

/** The renderer's input from a month's published (or planned) figures. Pure. */
export function monthlyReportInput(
  month: string,
  book: PublishedBook,
  reportingHandlers: number,
  season: { title: string },
  compiledOn: string,
): MonthlyPositionReportInput {
  const pair = (series: string, atom: string): PeriodFigures => ({
    period: book.figure(figureKeys.month(atom)),
    seasonToDate: book.figure(figureKeys.seasonToDate(series, month)),
  });
  const f1 = (m: string) => pair(`f1.${m}`, f1Atom(m, month));
  const f2 = (m: string) => pair(`f2.${m}`, f2Atom(m, month));
  const now = (m: string): PublishedFigure => book.figure(f1Atom(m, month));
  const exportsByCountry: ExportCountryFigures<PeriodFigures>[] = book
    .countries('std:x.inshell_lb.', `:${month}`)
    .map((country) => {
      const exportPair = (kind: string) => pair(`x.${kind}.${country}`, exportAtom(kind, country, month));
      return {
        country,
        inshell: exportPair('inshell_lb'),
        shelled: exportPair('shelled_lb'),
        substandard: exportPair('substandard_lb'),
      };
    });
  return {
    month,
    season: { title: season.title },
    reportingHandlers,
    receipts: {
      improved: f1('receipts_improved'),
      native: f1('receipts_native'),
      substandard: f1('receipts_substandard'),
      foreignInshell: f2('purchased_inshell_total'),
      foreignShelled: f2('purchased_shelled_total'),
    },
    // Transfers are counted once, as the shipping handlers report them (Form 1, inter-handler shipped).
    shipments: {
      inshell: f1('shipments_inshell'),
      shelled: f1('shipments_shelled'),
      interhandler: f1('interhandler_shipped'),
    },
    inventory: { inshell: now('inventory_inshell'), shelled: now('inventory_shelled') },
    committed: { domestic: now('committed_domestic'), export: now('committed_export') },
    exportsByCountry,
    notes: [
      `Compiled on ${compiledOn} from the handlers' certified reports (the current version of each when the figures were ` +
        'published; amendments certified later appear only in a revision). Inter-handler transfers are counted as the shipping handlers report them.',
      SUPPRESSION_NOTE,
    ],
  };
}

/** The figures a month's report shows: as published, or as they would be published now (not yet published). */
async function monthlyBook(db: PortalDb, seasonId: string, month: string): Promise<PublishedBook> {
  const current = currentPublication(await seasonPublications(db, seasonId), monthScope(month));
  if (current) return new PublishedBook(current.figures);
  return new PublishedBook(
    await plannedFigures(db, seasonId, await periodMonthsOfSeason(db, seasonId), monthScope(month)),
  );
}

export interface GeneratedMonthlyReport extends StoredDocument {
  periodId: string;
  handlersCount: number;
  publishToPortal: boolean;
}

/**
 * Staff (re)generate a month's position report: aggregate, render the PDF, store it owned by the report, and create
 * or update the period's report row. Whether it is published to the portal stays as it was.
 */
export async function generateMonthlyPositionReport(a: Actor, periodMonth: string): Promise<GeneratedMonthlyReport> {
  assertStaff(a.viewer, 'generate position reports');
  const db = dbOf(a);
  const period = await periodOfMonth(db, periodMonth);
  const season = await loadRow(db, 'seasons', period.season_id);
  // How many handlers reported is a count, not a figure of any handler: it is read live.
  const figures = { reportingHandlers: await reportingHandlerCount(db, [periodMonth]) };
  const book = await monthlyBook(db, String(season.id), periodMonth);
  const content = await renderPdf(
    a.ctx.pdfThreads,
    'monthly-position-report',
    monthlyReportInput(periodMonth, book, figures.reportingHandlers, { title: String(season.title) }, todayOf(a)),
  );
  const stored = await upsertDocumentNode(a, {
    table: 'monthly_position_reports',
    type: MONTHLY_REPORT_TYPE,
    key: { period_id: period.id },
    values: {
      title: `Pecan Industry Position Report - ${String(period.title)}`,
      handlers_count: figures.reportingHandlers,
    },
    fileColumn: 'position_report_pdf_id',
    file: { filename: `pecan-position-report-${periodMonth}.pdf`, mime: PDF_MIME, content },
  });
  const row = await loadRow(db, 'monthly_position_reports', stored.id);
  return {
    ...stored,
    periodId: String(period.id),
    handlersCount: figures.reportingHandlers,
    publishToPortal: isTrue(row.publish_to_portal),
  };
}

/**
 * Staff publish a monthly report to the portal (handlers then see it) or take it off again. Publishing freezes the
 * month's figures the first time (disclosure/publications.ts) and renders the report from them.
 */
export async function publishMonthlyPositionReport(a: Actor, reportId: string, publish: boolean): Promise<void> {
  assertStaff(a.viewer, 'publish position reports');
  const row = await loadRow(dbOf(a), 'monthly_position_reports', reportId);
  if (isTrue(row.publish_to_portal) === publish) return;
  if (publish) {
    // A report from no handler's filings publishes nothing (a month not filed yet, or not happened): refused.
    const period = await loadRow(dbOf(a), 'reporting_periods', String(row.period_id));
    if ((await reportingHandlerCount(dbOf(a), [String(period.period_month)])) === 0) {
      throw new ApiError(
        409,
        `The ${String(period.title)} report would publish nothing: no handler has certified its forms for the month yet.`,
        { meta: { code: 'nothing_to_publish' } },
      );
    }
    await freezeMonth(a, String(row.period_id), false);
  }
  await updateRow(a, 'monthly_position_reports', await loadRow(dbOf(a), 'monthly_position_reports', reportId), {
    publish_to_portal: dbBool(a, publish),
  });
}

/**
 * Staff publish a revision of a month's figures: the current certified versions, checked against everything
 * published before (the earlier revision included). The report is rendered again from the revision.
 */
export async function reviseMonthlyPositionReport(a: Actor, periodMonth: string): Promise<GeneratedMonthlyReport> {
  assertStaff(a.viewer, 'publish position reports');
  const period = await periodOfMonth(dbOf(a), periodMonth);
  await freezeMonth(a, String(period.id), true);
  return generateMonthlyPositionReport(a, periodMonth);
}

async function freezeMonth(a: Actor, periodId: string, revise: boolean): Promise<void> {
  const db = dbOf(a);
  const period = await loadRow(db, 'reporting_periods', periodId);
  const seasonId = String(period.season_id);
  const already = currentPublication(await seasonPublications(db, seasonId), monthScope(String(period.period_month)));
  await publishFigures(
    a,
    seasonId,
    await periodMonthsOfSeason(db, seasonId),
    monthScope(String(period.period_month)),
    revise,
  );
  if (!already || revise) await generateMonthlyPositionReport(a, String(period.period_month));
}

/** The aggregates of a season: its months' totals together and its certified forms 5. */
export interface AnnualPositionFigures {
  months: string[];
  reportingHandlers: number;
  form1: Totals<Form1Metric>;
  form2: Totals<Form2Metric>;
  yearEnd: Totals<Form5Metric>;
  exports: CountryTotals[];
}

export async function annualPositionFigures(db: PortalDb, seasonId: string): Promise<AnnualPositionFigures> {
  const months = await periodMonthsOfSeason(db, seasonId);
  const [form1, form2, yearEnd, exports, reportingHandlers] = await Promise.all([
    monthlyFormTotals(db, 'apc_form_1', FORM_1_METRICS, { months }),
    monthlyFormTotals(db, 'apc_form_2', FORM_2_METRICS, { months }),
    yearEndTotals(db, seasonId),
    exportTotalsByCountry(db, months),
    reportingHandlerCount(db, months, seasonId),
  ]);
  return { months, reportingHandlers, form1, form2, yearEnd, exports };
}

/** The renderer's input from the season's published figures. Pure. */
export function annualReportInput(
  book: PublishedBook,
  counts: { reportingHandlers: number; yearEndHandlers: number },
  season: { title: string; startDate?: string; endDate?: string },
  compiledOn: string,
): AnnualPositionReportInput {
  const f1 = (m: string) => book.figure(figureKeys.season(`f1.${m}`));
  const f2 = (m: string) => book.figure(figureKeys.season(`f2.${m}`));
  const f5 = (m: string) => book.figure(f5Atom(m));
  return {
    season,
    reportingHandlers: counts.reportingHandlers,
    receipts: {
      improved: f1('receipts_improved'),
      native: f1('receipts_native'),
      substandard: f1('receipts_substandard'),
      foreignInshell: f2('purchased_inshell_total'),
      foreignShelled: f2('purchased_shelled_total'),
    },
    shipments: {
      inshell: f1('shipments_inshell'),
      shelled: f1('shipments_shelled'),
      interhandler: f1('interhandler_shipped'),
    },
    yearEndInventory: {
      inshellImproved: f5('inshell_inventory_improved'),
      inshellNative: f5('inshell_inventory_native'),
      inshellSubstandard: f5('inshell_inventory_substandard'),
      inshellCommittedDomestic: f5('inshell_committed_domestic'),
      inshellCommittedExport: f5('inshell_committed_export'),
      inshellUncommitted: f5('inshell_uncommitted'),
      shelled: f5('shelled_inventory'),
      shelledCommittedDomestic: f5('shelled_committed_domestic'),
      shelledCommittedExport: f5('shelled_committed_export'),
    },
    handledDomestic: {
      improved: f5('handled_domestic_improved'),
      native: f5('handled_domestic_native'),
      substandard: f5('handled_domestic_substandard'),
    },
    exportsByCountry: book.countries('season:x.inshell_lb.').map((country) => ({
      country,
      inshell: book.figure(figureKeys.season(`x.inshell_lb.${country}`)),
      shelled: book.figure(figureKeys.season(`x.shelled_lb.${country}`)),
      substandard: book.figure(figureKeys.season(`x.substandard_lb.${country}`)),
    })),
    notes: [
      `Compiled on ${compiledOn} from the handlers' certified reports (the current version of each when the figures were ` +
        `published). Year-end figures come from ${counts.yearEndHandlers} certified year-end inventory reports (Form 5).`,
      SUPPRESSION_NOTE,
    ],
  };
}

export interface GeneratedAnnualReport extends StoredDocument {
  handlersCount: number;
}

/**
 * Staff (re)generate a season's annual position report, from the season's published figures; `revise` publishes a
 * revision of them first (the current certified versions, checked against everything published before).
 */
export async function generateAnnualPositionReport(
  a: Actor,
  seasonId: string,
  options: { revise?: boolean } = {},
): Promise<GeneratedAnnualReport> {
  assertStaff(a.viewer, 'generate position reports');
  const db = dbOf(a);
  const season = await seasonById(db, seasonId);
  const figures = await annualPositionFigures(db, String(season.id));
  // The annual report is public once generated: its figures are published (frozen) the first time.
  const publication = await publishFigures(a, String(season.id), figures.months, SEASON_SCOPE, options.revise ?? false);
  const counts = { reportingHandlers: figures.reportingHandlers, yearEndHandlers: figures.yearEnd.reportingHandlers };
  const content = await renderPdf(
    a.ctx.pdfThreads,
    'annual-position-report',
    annualReportInput(
      new PublishedBook(publication.figures),
      counts,
      {
        title: String(season.title),
        startDate: String(season.season_start_date),
        endDate: String(season.season_end_date),
      },
      todayOf(a),
    ),
  );
  const stored = await upsertDocumentNode(a, {
    table: 'annual_position_reports',
    type: ANNUAL_REPORT_TYPE,
    key: { season_id: season.id },
    values: {
      title: `Annual Pecan Industry Position Report - ${String(season.title)}`,
      handlers_count: figures.reportingHandlers,
    },
    fileColumn: 'position_report_pdf_id',
    file: { filename: `pecan-position-report-${String(season.title)}.pdf`, mime: PDF_MIME, content },
  });
  return { ...stored, handlersCount: figures.reportingHandlers };
}

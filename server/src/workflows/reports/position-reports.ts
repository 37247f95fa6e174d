import { earlierPeriodsOfSeason, isPeriodMonth } from '@pecan/contract';
import type { Db } from '../../db/database.js';
import type { Row } from '../../jsonapi/resource.js';
import { ApiError } from '../../plugins/errors.js';
import {
  renderAnnualPositionReportPdf, renderMonthlyPositionReportPdf, type AnnualPositionReportInput, type ExportCountryFigures,
  type MonthlyPositionReportInput, type PeriodFigures,
} from '../../render/index.js';
import { assertStaff, dbBool, dbOf, isTrue, loadRow, todayOf, updateRow, type Actor } from '../common.js';
import {
  exportTotalsByCountry, FORM_1_METRICS, FORM_2_METRICS, monthlyFormTotals, reportingHandlerCount, yearEndTotals,
  type CountryTotals, type Form1Metric, type Form2Metric, type Form5Metric, type Totals,
} from './aggregates.js';
import { publishFigure, type PublishedFigure } from './confidentiality.js';
import { PDF_MIME, upsertDocumentNode, type StoredDocument } from './documents.js';

export const MONTHLY_REPORT_TYPE = 'node--monthly_position_report';
export const ANNUAL_REPORT_TYPE = 'node--annual_position_report';

/** The reporting period of a month, or 422 naming the body member (the council routes pass it as `period_month`). */
export async function periodOfMonth(db: Db, periodMonth: unknown): Promise<Row> {
  if (!isPeriodMonth(periodMonth)) {
    throw new ApiError(422, 'period_month must be a month written YYYY-MM, such as "2026-10".', { source: { pointer: '/period_month' } });
  }
  const period = await db.selectFrom('reporting_periods').selectAll().where('period_month', '=', periodMonth).executeTakeFirst();
  if (!period) throw new ApiError(422, `There is no reporting period for ${periodMonth}: open the period first.`, { source: { pointer: '/period_month' } });
  return period as Row;
}

/** A season by id, or 422 naming the body member `season_id`. */
export async function seasonById(db: Db, seasonId: unknown): Promise<Row> {
  const season = typeof seasonId === 'string' && seasonId !== ''
    ? await db.selectFrom('seasons').selectAll().where('id', '=', seasonId).executeTakeFirst()
    : undefined;
  if (!season) throw new ApiError(422, `There is no season with id ${JSON.stringify(seasonId ?? null)}.`, { source: { pointer: '/season_id' } });
  return season as Row;
}

/** The months of a season that have a reporting period, in order. */
export async function periodMonthsOfSeason(db: Db, seasonId: string): Promise<string[]> {
  const rows = await db.selectFrom('reporting_periods').select('period_month').where('season_id', '=', seasonId).orderBy('period_month').execute();
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

export async function monthlyPositionFigures(db: Db, periodMonth: string): Promise<MonthlyPositionFigures> {
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
    month: periodMonth, reportingHandlers: reporting,
    form1: { period: f1, seasonToDate: f1Std }, form2: { period: f2, seasonToDate: f2Std },
    exports: { period: ex, seasonToDate: exStd },
  };
}

/** The renderer's input: every aggregate through the confidentiality rule. Pure. */
export function monthlyReportInput(figures: MonthlyPositionFigures, season: { title: string }, compiledOn: string): MonthlyPositionReportInput {
  const pair = <M extends string>(t: { period: Totals<M>; seasonToDate: Totals<M> }, m: M): PeriodFigures => ({
    period: publishFigure(t.period.figures[m]), seasonToDate: publishFigure(t.seasonToDate.figures[m]),
  });
  const f1 = (m: Form1Metric) => pair(figures.form1, m);
  const now = (m: Form1Metric): PublishedFigure => publishFigure(figures.form1.period.figures[m]);
  const periodByCountry = new Map(figures.exports.period.map((c) => [c.country, c]));
  const exportsByCountry: ExportCountryFigures<PeriodFigures>[] = figures.exports.seasonToDate.map((std) => {
    const period = periodByCountry.get(std.country);
    const exportPair = (m: 'inshell_lb' | 'shelled_lb' | 'substandard_lb'): PeriodFigures => ({
      period: publishFigure(period?.figures[m]), seasonToDate: publishFigure(std.figures[m]),
    });
    return { country: std.country, inshell: exportPair('inshell_lb'), shelled: exportPair('shelled_lb'), substandard: exportPair('substandard_lb') };
  });
  return {
    month: figures.month,
    season: { title: season.title },
    reportingHandlers: figures.reportingHandlers,
    receipts: {
      improved: f1('receipts_improved'), native: f1('receipts_native'), substandard: f1('receipts_substandard'),
      foreignInshell: pair(figures.form2, 'purchased_inshell_total'), foreignShelled: pair(figures.form2, 'purchased_shelled_total'),
    },
    // Transfers are counted once, as the shipping handlers report them (Form 1, inter-handler shipped).
    shipments: { inshell: f1('shipments_inshell'), shelled: f1('shipments_shelled'), interhandler: f1('interhandler_shipped') },
    inventory: { inshell: now('inventory_inshell'), shelled: now('inventory_shelled') },
    committed: { domestic: now('committed_domestic'), export: now('committed_export') },
    exportsByCountry,
    notes: [
      `Compiled on ${compiledOn} from the handlers' certified reports (the current version of each; amendments included, `
        + 'superseded versions and drafts left out). Inter-handler transfers are counted as the shipping handlers report them.',
    ],
  };
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
  const figures = await monthlyPositionFigures(db, periodMonth);
  const content = await renderMonthlyPositionReportPdf(monthlyReportInput(figures, { title: String(season.title) }, todayOf(a)));
  const stored = await upsertDocumentNode(a, {
    table: 'monthly_position_reports', type: MONTHLY_REPORT_TYPE,
    key: { period_id: period.id },
    values: { title: `Pecan Industry Position Report - ${String(period.title)}`, handlers_count: figures.reportingHandlers },
    fileColumn: 'position_report_pdf_id',
    file: { filename: `pecan-position-report-${periodMonth}.pdf`, mime: PDF_MIME, content },
  });
  const row = await loadRow(db, 'monthly_position_reports', stored.id);
  return { ...stored, periodId: String(period.id), handlersCount: figures.reportingHandlers, publishToPortal: isTrue(row.publish_to_portal) };
}

/** Staff publish a monthly report to the portal (handlers then see it) or take it off again. */
export async function publishMonthlyPositionReport(a: Actor, reportId: string, publish: boolean): Promise<void> {
  assertStaff(a.viewer, 'publish position reports');
  const row = await loadRow(dbOf(a), 'monthly_position_reports', reportId);
  if (isTrue(row.publish_to_portal) === publish) return;
  await updateRow(a, 'monthly_position_reports', row, { publish_to_portal: dbBool(a, publish) });
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

export async function annualPositionFigures(db: Db, seasonId: string): Promise<AnnualPositionFigures> {
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

/** The renderer's input: every aggregate through the confidentiality rule. Pure. */
export function annualReportInput(figures: AnnualPositionFigures, season: { title: string; startDate?: string; endDate?: string }, compiledOn: string): AnnualPositionReportInput {
  const f1 = (m: Form1Metric) => publishFigure(figures.form1.figures[m]);
  const f5 = (m: Form5Metric) => publishFigure(figures.yearEnd.figures[m]);
  return {
    season,
    reportingHandlers: figures.reportingHandlers,
    receipts: {
      improved: f1('receipts_improved'), native: f1('receipts_native'), substandard: f1('receipts_substandard'),
      foreignInshell: publishFigure(figures.form2.figures.purchased_inshell_total),
      foreignShelled: publishFigure(figures.form2.figures.purchased_shelled_total),
    },
    shipments: { inshell: f1('shipments_inshell'), shelled: f1('shipments_shelled'), interhandler: f1('interhandler_shipped') },
    yearEndInventory: {
      inshellImproved: f5('inshell_inventory_improved'), inshellNative: f5('inshell_inventory_native'),
      inshellSubstandard: f5('inshell_inventory_substandard'), inshellCommittedDomestic: f5('inshell_committed_domestic'),
      inshellCommittedExport: f5('inshell_committed_export'), inshellUncommitted: f5('inshell_uncommitted'),
      shelled: f5('shelled_inventory'), shelledCommittedDomestic: f5('shelled_committed_domestic'),
      shelledCommittedExport: f5('shelled_committed_export'),
    },
    handledDomestic: {
      improved: f5('handled_domestic_improved'), native: f5('handled_domestic_native'), substandard: f5('handled_domestic_substandard'),
    },
    exportsByCountry: figures.exports.map((c) => ({
      country: c.country, inshell: publishFigure(c.figures.inshell_lb), shelled: publishFigure(c.figures.shelled_lb),
      substandard: publishFigure(c.figures.substandard_lb),
    })),
    notes: [
      `Compiled on ${compiledOn} from the handlers' certified reports (the current version of each). Year-end figures `
        + `come from ${figures.yearEnd.reportingHandlers} certified year-end inventory reports (Form 5).`,
    ],
  };
}

export interface GeneratedAnnualReport extends StoredDocument {
  handlersCount: number;
}

/** Staff (re)generate a season's annual position report. */
export async function generateAnnualPositionReport(a: Actor, seasonId: string): Promise<GeneratedAnnualReport> {
  assertStaff(a.viewer, 'generate position reports');
  const db = dbOf(a);
  const season = await seasonById(db, seasonId);
  const figures = await annualPositionFigures(db, String(season.id));
  const content = await renderAnnualPositionReportPdf(annualReportInput(figures, {
    title: String(season.title), startDate: String(season.season_start_date), endDate: String(season.season_end_date),
  }, todayOf(a)));
  const stored = await upsertDocumentNode(a, {
    table: 'annual_position_reports', type: ANNUAL_REPORT_TYPE,
    key: { season_id: season.id },
    values: { title: `Annual Pecan Industry Position Report - ${String(season.title)}`, handlers_count: figures.reportingHandlers },
    fileColumn: 'position_report_pdf_id',
    file: { filename: `pecan-position-report-${String(season.title)}.pdf`, mime: PDF_MIME, content },
  });
  return { ...stored, handlersCount: figures.reportingHandlers };
}

import type { PortalDb } from '../../db/portal-tables.js';
import type { Row } from '../../jsonapi/resource.js';
import {
  renderHandlerAnalyticsWorkbook,
  renderIndustryAnalyticsWorkbook,
  type HandlerAnalyticsMonth,
  type HandlerMetric,
  type IndustryAnalyticsInput,
  type IndustryMonth,
} from '../../render/index.js';
import { assertStaff, dbOf, loadRow, nowIso, todayOf, type Actor } from '../common.js';
import {
  FORM_1_METRICS,
  FORM_3_METRICS,
  monthlyFormTotalsByHandlerAndMonth,
  monthlyFormTotalsByMonth,
  type Form1Metric,
  type Form3Metric,
  type Totals,
} from './aggregates.js';
import type { Aggregate, PublishedFigure } from './confidentiality.js';
import { currentPublication, monthScope, publishedMonths, seasonPublications } from './disclosure/publications.js';
import { PublishedBook } from './disclosure/published.js';
import { exportAtom, f1Atom, figureKeys } from './disclosure/season-model.js';
import { upsertDocumentNode, XLSX_MIME, type StoredDocument } from './documents.js';
import { periodMonthsOfSeason, seasonById } from './position-reports.js';

export const INDUSTRY_ANALYTICS_TYPE = 'node--industry_analytics';
export const HANDLER_ANALYTICS_TYPE = 'node--handler_analytics';

/**
 * The industry's published figures of a season, month by month: only months whose figures staff have published
 * (a month's position report), exactly as published (disclosure/publications.ts). The analytics never compute an
 * industry figure of their own, so they can neither reveal a withheld one nor move with a later amendment.
 */
export interface IndustrySeasonFigures {
  /** Every month of the season with a reporting period. */
  months: string[];
  /** Published months: the figures in force. */
  books: Map<string, PublishedBook>;
  /** Handlers with a certified Form 1 per month (a count, which reveals no handler's figures). */
  reportingHandlers: Map<string, number>;
}

export async function industrySeasonFigures(db: PortalDb, seasonId: string): Promise<IndustrySeasonFigures> {
  const months = await periodMonthsOfSeason(db, seasonId);
  const [publications, form1] = await Promise.all([
    seasonPublications(db, seasonId),
    monthlyFormTotalsByMonth(db, 'apc_form_1', [], { months }),
  ]);
  const books = new Map(
    publishedMonths(publications).map((m) => [
      m,
      new PublishedBook(currentPublication(publications, monthScope(m))!.figures),
    ]),
  );
  return { months, books, reportingHandlers: new Map([...form1].map(([m, t]) => [m, t.reportingHandlers])) };
}

/** The workbook's input: the published months, their figures as published. Pure. */
export function industryAnalyticsInput(
  figures: IndustrySeasonFigures,
  season: { title: string },
  generatedAt: string,
  publishedDate: string,
): IndustryAnalyticsInput {
  const months: IndustryMonth[] = figures.months
    .filter((m) => figures.books.has(m))
    .map((month) => {
      const book = figures.books.get(month)!;
      const f = (m: string) => book.figure(f1Atom(m, month));
      return {
        month,
        reportingHandlers: figures.reportingHandlers.get(month) ?? 0,
        receipts: {
          improved: f('receipts_improved'),
          native: f('receipts_native'),
          substandard: f('receipts_substandard'),
        },
        shipments: {
          inshell: f('shipments_inshell'),
          shelled: f('shipments_shelled'),
          interhandler: f('interhandler_shipped'),
        },
        inventory: {
          inshell: f('inventory_inshell'),
          shelled: f('inventory_shelled'),
          committedDomestic: f('committed_domestic'),
          committedExport: f('committed_export'),
        },
        exports: book.countries('std:x.inshell_lb.', `:${month}`).map((c) => ({
          country: c,
          inshell: book.figure(exportAtom('inshell_lb', c, month)),
          shelled: book.figure(exportAtom('shelled_lb', c, month)),
          substandard: book.figure(exportAtom('substandard_lb', c, month)),
        })),
      };
    });
  return { season, months, generatedAt, publishedDate };
}

export interface GeneratedIndustryAnalytics extends StoredDocument {
  publishedDate: string;
}

/** Staff (re)generate a season's industry analytics workbook, one row per month of the season; published today. */
export async function generateIndustryAnalytics(a: Actor, seasonId: string): Promise<GeneratedIndustryAnalytics> {
  assertStaff(a.viewer, 'generate industry analytics');
  const db = dbOf(a);
  const season = await seasonById(db, seasonId);
  const figures = await industrySeasonFigures(db, String(season.id));
  const publishedDate = todayOf(a);
  const content = await renderIndustryAnalyticsWorkbook(
    industryAnalyticsInput(figures, { title: String(season.title) }, nowIso(a), publishedDate),
  );
  const stored = await upsertDocumentNode(a, {
    table: 'industry_analytics',
    type: INDUSTRY_ANALYTICS_TYPE,
    key: { season_id: season.id },
    values: { title: `Industry Analytics - ${String(season.title)}`, published_date: publishedDate },
    fileColumn: 'industry_analytics_xlsx_id',
    file: { filename: `industry-analytics-${String(season.title)}.xlsx`, mime: XLSX_MIME, content },
  });
  return { ...stored, publishedDate };
}

/** Where each compared metric comes from: a Form 1 column or a Form 3 total (the sum of a month's export rows). */
const FORM_3_KINDS: Record<Form3Metric, string> = {
  total_inshell_lb: 'inshell_lb',
  total_shelled_lb: 'shelled_lb',
  total_substandard_lb: 'substandard_lb',
};
const HANDLER_METRICS: Array<[HandlerMetric, { form1: Form1Metric } | { form3: Form3Metric }]> = [
  ['receiptsImproved', { form1: 'receipts_improved' }],
  ['receiptsNative', { form1: 'receipts_native' }],
  ['receiptsSubstandard', { form1: 'receipts_substandard' }],
  ['shipmentsInshell', { form1: 'shipments_inshell' }],
  ['shipmentsShelled', { form1: 'shipments_shelled' }],
  ['inventoryInshell', { form1: 'inventory_inshell' }],
  ['inventoryShelled', { form1: 'inventory_shelled' }],
  ['exportsInshell', { form3: 'total_inshell_lb' }],
  ['exportsShelled', { form3: 'total_shelled_lb' }],
];

const published = (industry: IndustrySeasonFigures, month: string, key: string): PublishedFigure =>
  industry.books.get(month)?.figure(key) ?? { value: null, withheld: false, handlerCount: 0 };

type OwnFigures = { form1: Map<string, Totals<Form1Metric>>; form3: Map<string, Totals<Form3Metric>> };

/**
 * A handler's months: its own figures (null for a month without a certified version of the form) beside the
 * industry's as published (none for a month not published yet). Pure.
 */
export function handlerAnalyticsMonths(industry: IndustrySeasonFigures, own: OwnFigures): HandlerAnalyticsMonth[] {
  return industry.months.map((month) => {
    const pick = <T>(source: { form1: (m: Form1Metric) => T; form3: (m: Form3Metric) => T }) =>
      Object.fromEntries(
        HANDLER_METRICS.map(([key, from]) => [
          key,
          'form1' in from ? source.form1(from.form1) : source.form3(from.form3),
        ]),
      );
    const ownValue = (totals: Totals<string> | undefined, m: string): number | null => {
      const aggregate: Aggregate | undefined = totals?.figures[m];
      return aggregate ? aggregate.value : null;
    };
    return {
      month,
      handler: pick({
        form1: (m) => ownValue(own.form1.get(month), m),
        form3: (m) => ownValue(own.form3.get(month), m),
      }) as HandlerAnalyticsMonth['handler'],
      industry: pick({
        form1: (m) => published(industry, month, f1Atom(m, month)),
        form3: (m) => published(industry, month, figureKeys.exportTotal(FORM_3_KINDS[m], month)),
      }) as HandlerAnalyticsMonth['industry'],
    };
  });
}

async function ownFiguresOfHandlers(
  db: PortalDb,
  months: string[],
  handlerId?: string,
): Promise<Map<string, OwnFigures>> {
  const [form1, form3] = await Promise.all([
    monthlyFormTotalsByHandlerAndMonth(db, 'apc_form_1', FORM_1_METRICS, { months, handlerId }),
    monthlyFormTotalsByHandlerAndMonth(db, 'apc_form_3', FORM_3_METRICS, { months, handlerId }),
  ]);
  const handlers = new Set([...form1.keys(), ...form3.keys()]);
  return new Map([...handlers].map((h) => [h, { form1: form1.get(h) ?? new Map(), form3: form3.get(h) ?? new Map() }]));
}

async function storeHandlerAnalytics(
  a: Actor,
  handler: Row,
  season: Row,
  industry: IndustrySeasonFigures,
  own: OwnFigures | undefined,
): Promise<StoredDocument> {
  const content = await renderHandlerAnalyticsWorkbook({
    handler: { name: String(handler.title), number: String(handler.handler_number) },
    season: { title: String(season.title) },
    months: handlerAnalyticsMonths(industry, own ?? { form1: new Map(), form3: new Map() }),
    generatedAt: nowIso(a),
  });
  return upsertDocumentNode(a, {
    table: 'handler_analytics',
    type: HANDLER_ANALYTICS_TYPE,
    key: { handler_id: handler.id, season_id: season.id },
    values: { title: `Handler Analytics-${String(handler.handler_number)}-${String(season.title)}` },
    fileColumn: 'analytics_xlsx_id',
    file: {
      filename: `handler-analytics-${String(handler.handler_number)}-${String(season.title)}.xlsx`,
      mime: XLSX_MIME,
      content,
    },
  });
}

/** Staff (re)generate one handler's analytics workbook for a season. */
export async function generateHandlerAnalytics(a: Actor, handlerId: string, seasonId: string): Promise<StoredDocument> {
  assertStaff(a.viewer, 'generate handler analytics');
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', handlerId);
  const season = await seasonById(db, seasonId);
  const industry = await industrySeasonFigures(db, String(season.id));
  const own = await ownFiguresOfHandlers(db, industry.months, handlerId);
  return storeHandlerAnalytics(a, handler, season, industry, own.get(handlerId));
}

export interface GeneratedHandlerAnalytics extends StoredDocument {
  handlerId: string;
}

/** Staff (re)generate the analytics of every active handler for a season: the aggregates are queried once. */
export async function generateAllHandlerAnalytics(a: Actor, seasonId: string): Promise<GeneratedHandlerAnalytics[]> {
  assertStaff(a.viewer, 'generate handler analytics');
  const db = dbOf(a);
  const season = await seasonById(db, seasonId);
  const handlers = (await db
    .selectFrom('handlers')
    .selectAll()
    .where('handler_status', '=', 'active')
    .orderBy('handler_number')
    .execute()) as Row[];
  const industry = await industrySeasonFigures(db, String(season.id));
  const own = await ownFiguresOfHandlers(db, industry.months);
  const result: GeneratedHandlerAnalytics[] = [];
  for (const handler of handlers) {
    const stored = await storeHandlerAnalytics(a, handler, season, industry, own.get(String(handler.id)));
    result.push({ ...stored, handlerId: String(handler.id) });
  }
  return result;
}

import { earlierPeriodsOfSeason } from '@pecan/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { Row } from '../jsonapi/resource.js';
import { fileLinkSigner, readerLinkExpiry, type FileLinkSigner } from '../files/signing.js';
import { notFound } from '../lib/errors.js';
import { isTrue } from '../workflows/common.js';
import { noQuery, seasonQuery } from '@pecan/contract';
import {
  checkedQuery,
  existingId,
  invalidParameters,
  MAX_ID_LENGTH,
  pathParam,
  queryOf,
  staffSession,
} from './http.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * What the council has generated: the season's monthly and annual position reports and industry analytics
 * workbook, each with its file (a signed link), and which handlers' filings each one drew from.
 *
 * The sources are not stored: a document is computed from the versions that were certified (and not yet superseded)
 * when its file was made, so they are found again from the versions' certification times and the file's creation
 * time (both the server's clock, to the second).
 */

type Kind = 'monthly' | 'annual' | 'industry';
const KINDS: Record<Kind, { table: string; fileColumn: string }> = {
  monthly: { table: 'monthly_position_reports', fileColumn: 'position_report_pdf_id' },
  annual: { table: 'annual_position_reports', fileColumn: 'position_report_pdf_id' },
  industry: { table: 'industry_analytics', fileColumn: 'industry_analytics_xlsx_id' },
};

interface FileOut {
  id: string;
  filename: string;
  mime: string;
  size: number;
  created: string;
  url: string;
}

/** What a file's link is made with: the address the request came to, and the reader's signer. */
interface Links {
  baseUrl: string;
  sign: FileLinkSigner;
}

function linksFor(ctx: AppContext, request: FastifyRequest): Links {
  const session = staffSession(request);
  return {
    baseUrl: `${request.protocol}://${request.host}`,
    sign: fileLinkSigner(ctx, readerLinkExpiry(ctx, session.viewer.userId, ctx.clock.now()), session.familyId),
  };
}

async function fileOf(ctx: AppContext, links: Links, fileId: unknown): Promise<FileOut | null> {
  if (typeof fileId !== 'string') return null;
  const f = await portalDb(ctx.db)
    .selectFrom('files')
    .select(['id', 'filename', 'filemime', 'filesize', 'created'])
    .where('id', '=', fileId)
    .executeTakeFirst();
  if (!f) return null;
  const url = `${links.baseUrl}${links.sign(String(f.id), String(f.filename))}`;
  return {
    id: String(f.id),
    filename: String(f.filename),
    mime: String(f.filemime),
    size: Number(f.filesize),
    created: String(f.created),
    url,
  };
}

async function seasonOf(ctx: AppContext, seasonId: string | undefined): Promise<Row> {
  let q = portalDb(ctx.db).selectFrom('seasons').selectAll();
  q = seasonId
    ? q.where('id', '=', seasonId)
    : q.orderBy('current_season', 'desc').orderBy('season_start_date', 'desc');
  const season = (await q.executeTakeFirst()) as Row | undefined;
  if (!season) throw notFound('There is no season yet: create one with POST /api/council/seasons.');
  return season;
}

/** One generated document as the console lists it. */
async function documentOut(ctx: AppContext, links: Links, kind: Kind, row: Row, extra: Record<string, unknown>) {
  const file = await fileOf(ctx, links, row[KINDS[kind].fileColumn]);
  return {
    id: String(row.id),
    kind,
    title: String(row.title),
    ...extra,
    generated_at: file?.created ?? String(row.changed),
    changed: String(row.changed),
    file,
  };
}

/** A filing version a document drew from. */
interface Source {
  form: string;
  period_month: string | null;
  version_id: string;
  amendment_number: number;
  certified_at: string;
}

// Form 5 has no month: the column is selected as null so both shapes read alike.
const nullMonth = () => sql<null>`null`.as('period_month');

/**
 * The versions that counted at `at`: certified by then, and not superseded by an amendment certified by then. One
 * query per form table; the last such version of each filing (handler and month, or handler and season) wins.
 */
async function versionsCertifiedAt(
  ctx: AppContext,
  table: string,
  at: string,
  scope: { periodIds?: string[]; seasonId?: string },
) {
  if (scope.periodIds && scope.periodIds.length === 0) return [];
  let q = ctx.db
    .selectFrom(`${table} as f`)
    .select(['f.id', 'f.handler_id', 'f.amendment_number', 'f.certification_datetime'])
    .where('f.form_status', 'in', ['certified', 'superseded'])
    .where('f.certification_datetime', '<=', at);
  if (scope.periodIds) {
    q = q
      .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
      .select('p.period_month')
      .where('f.period_id', 'in', scope.periodIds);
  } else q = q.select(nullMonth()).where('f.season_id', '=', scope.seasonId!);
  const rows = await q.execute();
  const last = new Map<string, Row>();
  for (const r of rows as Row[]) {
    const key = `${String(r.handler_id)}|${String(r.period_month ?? '')}`;
    const seen = last.get(key);
    if (!seen || Number(r.amendment_number) > Number(seen.amendment_number)) last.set(key, r);
  }
  return [...last.values()].map((r) => ({
    handler_id: String(r.handler_id),
    source: {
      form: table,
      period_month: r.period_month ? String(r.period_month) : null,
      version_id: String(r.id),
      amendment_number: Number(r.amendment_number),
      certified_at: String(r.certification_datetime),
    } satisfies Source,
  }));
}

/** Which forms of which months (and form 5 of which season) a document of this kind is computed from. */
async function scopeOf(
  ctx: AppContext,
  kind: Kind,
  row: Row,
): Promise<{ periodIds: string[]; monthlyForms: string[]; seasonId: string | null; months: string[] }> {
  if (kind === 'monthly') {
    const period = await portalDb(ctx.db)
      .selectFrom('reporting_periods')
      .select(['period_month'])
      .where('id', '=', String(row.period_id))
      .executeTakeFirstOrThrow();
    const months = [...earlierPeriodsOfSeason(String(period.period_month)), String(period.period_month)];
    const periods = await portalDb(ctx.db)
      .selectFrom('reporting_periods')
      .select(['id', 'period_month'])
      .where('period_month', 'in', months)
      .orderBy('period_month')
      .execute();
    return {
      periodIds: periods.map((p) => String(p.id)),
      monthlyForms: ['apc_form_1', 'apc_form_2', 'apc_form_3'],
      seasonId: null,
      months: periods.map((p) => String(p.period_month)),
    };
  }
  const periods = await portalDb(ctx.db)
    .selectFrom('reporting_periods')
    .select(['id', 'period_month'])
    .where('season_id', '=', String(row.season_id))
    .orderBy('period_month')
    .execute();
  const base = { periodIds: periods.map((p) => String(p.id)), months: periods.map((p) => String(p.period_month)) };
  // The annual report adds the season's year-end forms; the industry workbook uses forms 1 and 3 only.
  return kind === 'annual'
    ? { ...base, monthlyForms: ['apc_form_1', 'apc_form_2', 'apc_form_3'], seasonId: String(row.season_id) }
    : { ...base, monthlyForms: ['apc_form_1', 'apc_form_3'], seasonId: null };
}

async function sourcesOf(ctx: AppContext, kind: Kind, row: Row, at: string) {
  const scope = await scopeOf(ctx, kind, row);
  const lists = await Promise.all([
    ...scope.monthlyForms.map((t) => versionsCertifiedAt(ctx, t, at, { periodIds: scope.periodIds })),
    scope.seasonId ? versionsCertifiedAt(ctx, 'apc_form_5', at, { seasonId: scope.seasonId }) : Promise.resolve([]),
  ]);
  const byHandler = new Map<string, Source[]>();
  for (const { handler_id, source } of lists.flat()) {
    if (!byHandler.has(handler_id)) byHandler.set(handler_id, []);
    byHandler.get(handler_id)!.push(source);
  }
  const ids = [...byHandler.keys()];
  const handlers =
    ids.length === 0
      ? []
      : await portalDb(ctx.db)
          .selectFrom('handlers')
          .select(['id', 'handler_number', 'title'])
          .where('id', 'in', ids)
          .orderBy('handler_number')
          .execute();
  const order = (s: Source) => `${s.period_month ?? '9999-99'}|${s.form}`;
  return {
    months: scope.months,
    forms: [...scope.monthlyForms, ...(scope.seasonId ? ['apc_form_5'] : [])],
    handlers: handlers.map((h) => ({
      handler_id: String(h.id),
      handler_number: String(h.handler_number),
      handler_name: String(h.title),
      filings: byHandler.get(String(h.id))!.sort((a, b) => order(a).localeCompare(order(b))),
    })),
  };
}

export function registerPublicationRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/reports', async (request) => {
    const links = linksFor(ctx, request);
    const { value: q, problems } = queryOf(request, seasonQuery);
    const seasonId = await existingId(ctx, 'seasons', q.season_id, 'season_id', problems);
    if (problems.length > 0) throw invalidParameters(problems);
    const season = await seasonOf(ctx, seasonId);
    const sid = String(season.id);
    const monthly = await portalDb(ctx.db)
      .selectFrom('monthly_position_reports as r')
      .innerJoin('reporting_periods as p', 'p.id', 'r.period_id')
      .selectAll('r')
      .select(['p.period_month', 'p.title as period_title'])
      .where('p.season_id', '=', sid)
      .orderBy('p.period_month', 'desc')
      .execute();
    const annual = await portalDb(ctx.db)
      .selectFrom('annual_position_reports')
      .selectAll()
      .where('season_id', '=', sid)
      .execute();
    const industry = await portalDb(ctx.db)
      .selectFrom('industry_analytics')
      .selectAll()
      .where('season_id', '=', sid)
      .execute();
    return {
      season: { id: sid, title: String(season.title), current: isTrue(season.current_season) },
      monthly: await Promise.all(
        (monthly as Row[]).map((r) =>
          documentOut(ctx, links, 'monthly', r, {
            period_id: String(r.period_id),
            period_month: String(r.period_month),
            period_title: String(r.period_title),
            handlers_count: Number(r.handlers_count),
            publish_to_portal: isTrue(r.publish_to_portal),
          }),
        ),
      ),
      annual: await Promise.all(
        (annual as Row[]).map((r) =>
          documentOut(ctx, links, 'annual', r, { season_id: sid, handlers_count: Number(r.handlers_count) }),
        ),
      ),
      industry_analytics: await Promise.all(
        (industry as Row[]).map((r) =>
          documentOut(ctx, links, 'industry', r, {
            season_id: sid,
            published_date: r.published_date ? String(r.published_date) : null,
          }),
        ),
      ),
    };
  });

  app.get('/reports/:kind/:id/sources', async (request) => {
    const links = linksFor(ctx, request);
    checkedQuery(request, noQuery);
    const kind = pathParam(request, 'kind');
    const id = pathParam(request);
    if (!(kind in KINDS)) throw notFound(`There is no kind of report "${kind}" (monthly, annual or industry).`);
    const spec = KINDS[kind as Kind];
    const row =
      id.length > MAX_ID_LENGTH
        ? undefined
        : ((await ctx.db.selectFrom(spec.table).selectAll().where('id', '=', id).executeTakeFirst()) as
            Row | undefined);
    if (!row) throw notFound(`There is no ${kind} report ${id}.`);
    const file = await fileOf(ctx, links, row[spec.fileColumn]);
    const at = file?.created ?? String(row.changed);
    return {
      report: { id: String(row.id), kind, title: String(row.title), generated_at: at, file },
      ...(await sourcesOf(ctx, kind as Kind, row, at)),
    };
  });
}

import { sql } from 'kysely';
import type { AppContext, Viewer } from '../context.js';
import { insertNode, storeFile, dbBool, type Actor } from '../workflows/common.js';

/**
 * Helpers shared by the JSON:API integration tests: published documents the demo data set may not have yet (the
 * report workflows are built apart), a checksum of every table, and paths from absolute links.
 */
const STAFF: Viewer = { userId: 'test-fixture', name: 'staff', role: 'staff', handlerId: null };

const PDF = new TextEncoder().encode('%PDF-1.4\n% fixture\n%%EOF\n');
const XLSX = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);

/**
 * Monthly position reports (published and not), annual position reports, industry analytics and handler analytics,
 * each with its file, for the rows that do not exist yet. Existing rows (from a demo that has them) are kept.
 */
export async function ensureDocumentRows(ctx: AppContext): Promise<void> {
  const a: Actor = { ctx, viewer: STAFF };
  const db = ctx.db;
  const seasons = await db
    .selectFrom('seasons')
    .select(['id', 'title', 'season_start_date'])
    .orderBy('season_start_date')
    .execute();
  const periods = await db
    .selectFrom('reporting_periods')
    .select(['id', 'period_month', 'season_id'])
    .orderBy('period_month')
    .execute();
  const handlers = await db.selectFrom('handlers').select(['id', 'handler_number']).execute();

  // Monthly reports: every past month; the most recent past month of each season is left unpublished.
  const lastOfSeason = new Map<string, string>();
  for (const p of periods.slice(0, -1)) lastOfSeason.set(String(p.season_id), String(p.id));
  for (const p of periods.slice(0, -1)) {
    if (await db.selectFrom('monthly_position_reports').select('id').where('period_id', '=', p.id).executeTakeFirst())
      continue;
    const id = await insertNode(a, 'monthly_position_reports', {
      title: `Monthly Position Report ${String(p.period_month)}`,
      period_id: p.id,
      publish_to_portal: dbBool(a, lastOfSeason.get(String(p.season_id)) !== p.id),
      handlers_count: handlers.length,
    });
    const file = await storeFile(
      a,
      { type: 'node--monthly_position_report', id },
      `monthly-${String(p.period_month)}.pdf`,
      'application/pdf',
      PDF,
    );
    await db
      .updateTable('monthly_position_reports')
      .set({ position_report_pdf_id: file })
      .where('id', '=', id)
      .execute();
  }
  for (const s of seasons.slice(0, -1)) {
    if (
      !(await db.selectFrom('annual_position_reports').select('id').where('season_id', '=', s.id).executeTakeFirst())
    ) {
      const id = await insertNode(a, 'annual_position_reports', {
        title: `Annual Position Report ${String(s.title)}`,
        season_id: s.id,
        handlers_count: handlers.length,
      });
      const file = await storeFile(
        a,
        { type: 'node--annual_position_report', id },
        `annual-${String(s.title)}.pdf`,
        'application/pdf',
        PDF,
      );
      await db
        .updateTable('annual_position_reports')
        .set({ position_report_pdf_id: file })
        .where('id', '=', id)
        .execute();
    }
    if (!(await db.selectFrom('industry_analytics').select('id').where('season_id', '=', s.id).executeTakeFirst())) {
      const id = await insertNode(a, 'industry_analytics', {
        title: `Industry Analytics ${String(s.title)}`,
        season_id: s.id,
        published_date: String(s.season_start_date),
      });
      const file = await storeFile(
        a,
        { type: 'node--industry_analytics', id },
        `industry-${String(s.title)}.xlsx`,
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        XLSX,
      );
      await db
        .updateTable('industry_analytics')
        .set({ industry_analytics_xlsx_id: file })
        .where('id', '=', id)
        .execute();
    }
    for (const h of handlers) {
      if (
        await db
          .selectFrom('handler_analytics')
          .select('id')
          .where('season_id', '=', s.id)
          .where('handler_id', '=', h.id)
          .executeTakeFirst()
      )
        continue;
      const id = await insertNode(a, 'handler_analytics', {
        title: `Handler Analytics ${String(h.handler_number)} ${String(s.title)}`,
        season_id: s.id,
        handler_id: h.id,
      });
      const file = await storeFile(
        a,
        { type: 'node--handler_analytics', id },
        `analytics-${String(h.handler_number)}-${String(s.title)}.xlsx`,
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        XLSX,
      );
      await db.updateTable('handler_analytics').set({ analytics_xlsx_id: file }).where('id', '=', id).execute();
    }
  }
}

/** Every table of the schema, with the column whose maximum moves on a write (null: row count only). */
export const TABLES: Array<[string, string | null]> = [
  ['files', 'created'],
  ['handlers', 'changed'],
  ['users', 'changed'],
  ['seasons', 'changed'],
  ['reporting_periods', 'changed'],
  ['reporting_forms_packages', 'changed'],
  ['apc_form_1', 'changed'],
  ['apc_form_2', 'changed'],
  ['apc_form_3', 'changed'],
  ['pecans_purchased_non_us', 'changed'],
  ['export_by_country', 'changed'],
  ['apc_form_4', 'changed'],
  ['apc_form_5', 'changed'],
  ['invoices', 'changed'],
  ['handler_packet_confirmations', 'changed'],
  ['monthly_position_reports', 'changed'],
  ['annual_position_reports', 'changed'],
  ['industry_analytics', 'changed'],
  ['handler_analytics', 'changed'],
  ['pecan_varieties', 'changed'],
  ['settings', null],
  ['oauth_clients', 'created'],
  ['oauth_token_families', 'created'],
  ['oauth_access_tokens', 'created'],
  ['oauth_refresh_tokens', 'created'],
  ['login_failures', 'failed_at'],
];

/** Row counts plus max(changed) of every table: equal before and after means nothing was written. */
export async function checksum(ctx: AppContext): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, column] of TABLES) {
    const r = column
      ? await sql<{
          n: unknown;
          m: unknown;
        }>`select count(*) as n, max(${sql.ref(column)}) as m from ${sql.table(table)}`.execute(ctx.db)
      : await sql<{ n: unknown; m: unknown }>`select count(*) as n, null as m from ${sql.table(table)}`.execute(ctx.db);
    out[table] = `${String(r.rows[0].n)}|${String(r.rows[0].m)}`;
  }
  return out;
}

/** `http://localhost:80/jsonapi/x?y` -> `/jsonapi/x?y`, for following links with inject. */
export const pathOf = (href: string): string => {
  const u = new URL(href);
  return `${u.pathname}${u.search}`;
};

/** A collection or item document's resources, data and included together. */
export interface Res {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { type: string; id: string } | Array<{ type: string; id: string }> | null }>;
}
export function resources(body: { data?: unknown; included?: unknown }): { data: Res[]; included: Res[] } {
  const data = body.data == null ? [] : Array.isArray(body.data) ? (body.data as Res[]) : [body.data as Res];
  return { data, included: (body.included as Res[] | undefined) ?? [] };
}

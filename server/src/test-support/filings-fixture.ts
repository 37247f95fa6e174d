import { api, type ApiResponse } from './api.js';
import type { TestDatabase } from './databases.js';
import { demoApp, type DemoApp } from './demo.js';

/**
 * What the filing workflow tests start from: the demo data set on one database, and its current season (the one
 * every form is filed in). Test support only.
 */
export interface DemoSeason {
  demo: DemoApp;
  currentSeason: string;
}

export async function demoSeason(target: TestDatabase): Promise<DemoSeason> {
  const demo = await demoApp(target);
  const seasons = await api(demo.app, demo.tokens.alice, 'GET', '/jsonapi/node/season?filter[field_current_season]=1');
  return { demo, currentSeason: seasons.body.data[0].id };
}

/**
 * Carol (handler 102) files and certifies a transfer agreement (form 4) to Dave's handler 103 in the current season,
 * the transferring handler responsible, from November 2026. Returns the API's answer, for the test to check.
 */
export function fileForm4ToDave(
  { demo, currentSeason }: DemoSeason,
  certification: { name: string; title?: string },
): Promise<ApiResponse> {
  return api(demo.app, demo.tokens.carol, 'POST', '/jsonapi/node/apc_form_4', {
    data: {
      type: 'node--apc_form_4',
      attributes: {
        field_responsible_handler: 'transferring',
        field_first_transfer_month: '2026-11',
        field_certified: true,
        field_certification_name: certification.name,
        ...(certification.title !== undefined ? { field_certification_title: certification.title } : {}),
      },
      relationships: {
        field_receiving_handler: { data: { type: 'node--handler', id: demo.handlers['103'] } },
        field_season: { data: { type: 'node--season', id: currentSeason } },
      },
    },
  });
}

/** The id of a handler's form 1 of a period in the given status (the one there is; throws when there is none). */
export async function form1IdOf(demo: DemoApp, handlerId: string, periodId: string, status = 'draft'): Promise<string> {
  const row = await demo.ctx.db
    .selectFrom('apc_form_1')
    .select('id')
    .where('handler_id', '=', handlerId)
    .where('period_id', '=', periodId)
    .where('form_status', '=', status)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/** A handler's invoices of a period, oldest first, as the invoice tests compare them. */
export async function invoicesOf(demo: DemoApp, handlerId: string, periodId: string) {
  const rows = await demo.ctx.db
    .selectFrom('invoices')
    .selectAll()
    .where('handler_id', '=', handlerId)
    .where('period_id', '=', periodId)
    .orderBy('created')
    .orderBy('invoice_number')
    .execute();
  return rows.map((i) => ({
    number: String(i.invoice_number),
    cents: Number(i.amount_due_cents),
    status: String(i.invoice_status),
    due: String(i.due_date),
    form: i.form_1_id ?? null,
    lines: JSON.parse(String(i.transfer_lines)) as Array<Record<string, unknown>>,
  }));
}

/** The id of the reporting period of a month (YYYY-MM). */
export async function periodIdOf(demo: DemoApp, month: string): Promise<string> {
  const row = await demo.ctx.db
    .selectFrom('reporting_periods')
    .select('id')
    .where('period_month', '=', month)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

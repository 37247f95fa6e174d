import { apiAttributesOf, type FormBundle } from '@pecan/contract';
import type { Row } from '../jsonapi/resource.js';
import type { FormPdfInput } from '../render/form-pdf.js';
import { renderPdf } from '../render/pdf-threads.js';
import { dbOf, loadRow, type Actor } from './common.js';
import { parseTransferLines } from './transfer-assessment.js';

const SUB_RECORDS: Partial<Record<FormBundle, 'pecans_purchased_non_us' | 'export_by_country'>> = {
  apc_form_2: 'pecans_purchased_non_us',
  apc_form_3: 'export_by_country',
};

const handlerRef = (h: Row) => ({ name: String(h.title), number: String(h.handler_number) });

/** Renders one version of a form as it stands in `row`; the file name says which form, handler, month and version. */
export async function renderFormVersionPdf(
  a: Actor,
  bundle: 'apc_form_1' | 'apc_form_2' | 'apc_form_3' | 'apc_form_4' | 'apc_form_5',
  row: Row,
): Promise<{ filename: string; content: Uint8Array }> {
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', row.handler_id ?? row.transferring_handler_id);
  const input: FormPdfInput = {
    bundle,
    handler: handlerRef(handler),
    amendmentNumber: Number(row.amendment_number ?? 0),
    amendmentReason: (row.amendment_reason as string | null) ?? null,
    status: row.form_status as FormPdfInput['status'],
    attributes: apiAttributesOf(bundle, row),
    certification: row.certification_datetime
      ? {
          name: String(row.certification_name),
          title: (row.certification_title as string | null) ?? null,
          datetime: String(row.certification_datetime),
        }
      : null,
  };
  let when = '';
  if (row.period_id) {
    const period = await loadRow(db, 'reporting_periods', row.period_id);
    input.period = { month: String(period.period_month) };
    when = String(period.period_month);
  }
  if (row.season_id) {
    const season = await loadRow(db, 'seasons', row.season_id);
    input.season = { title: String(season.title) };
    when = String(season.title);
  }
  const sub = SUB_RECORDS[bundle];
  if (sub) {
    const rows = (await db
      .selectFrom(sub)
      .selectAll()
      .where('form_id', '=', row.id as string)
      .orderBy('position')
      .execute()) as Row[];
    input.rows = rows.map((r) => apiAttributesOf(sub, r));
  }
  if (bundle === 'apc_form_1') input.receivers = await receiversOf(a, row);
  if (bundle === 'apc_form_4') {
    const receiving = await loadRow(db, 'handlers', row.receiving_handler_id);
    input.transfer = {
      transferring: handlerRef(handler),
      receiving: handlerRef(receiving),
      activity: row.form_activity as 'active' | 'cancelled',
      countersignature: row.receiving_certification_datetime
        ? {
            name: String(row.receiving_certification_name),
            title: (row.receiving_certification_title as string | null) ?? null,
            datetime: String(row.receiving_certification_datetime),
          }
        : null,
    };
  }
  const version = Number(row.amendment_number ?? 0) > 0 ? `-amendment-${String(row.amendment_number)}` : '';
  const filename = `${bundle.replace('apc_', '')}-${String(handler.handler_number)}-${when}${version}.pdf`;
  return { filename, content: await renderPdf(a.ctx.pdfThreads, 'form', input) };
}

/** The handlers a form 1's shipment lines name, for their names on the PDF. */
async function receiversOf(a: Actor, row: Row): Promise<Record<string, { name: string; number: string }>> {
  const ids = [...new Set(parseTransferLines(row.interhandler_shipments).map((l) => l.receiving_handler))];
  if (ids.length === 0) return {};
  const rows = (await dbOf(a).selectFrom('handlers').selectAll().where('id', 'in', ids).execute()) as Row[];
  return Object.fromEntries(rows.map((h) => [String(h.id), handlerRef(h)]));
}

import type { Kysely } from 'kysely';

/**
 * Inter-handler shipments by receiving handler and type, so the assessment follows a form 4 agreement
 * (docs/decisions/0010-transfer-assessment.md):
 * - apc_form_1.interhandler_shipments: [{ receiving_handler, pecan_type, pounds }] as JSON text; the month's
 *   `interhandler_shipped` becomes their sum (computed). Existing versions keep their stored total and get no lines.
 * - invoices.transfer_lines: the invoice's inter-handler lines as issued ([{ direction, counterparty_name,
 *   counterparty_number, pecan_type, pounds, rate, amount }]), so the invoice page shows them without reading the
 *   other handler's form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apc_form_1')
    .addColumn('interhandler_shipments', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('invoices')
    .addColumn('transfer_lines', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').dropColumn('transfer_lines').execute();
  await db.schema.alterTable('apc_form_1').dropColumn('interhandler_shipments').execute();
}

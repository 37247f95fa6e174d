import { computeForm1, form1Context, form1MonthFigures, type Form1MonthFigures } from '@pecan/contract';
import type { Kysely } from 'kysely';

/**
 * Form 1 on the bases 7 CFR 986.177(a) asks for. Shipments inshell and shelled and inter-handler transfers shipped
 * and received each get their own previous-month and season-to-date figures; the old `shipments_total`,
 * `shipments_prev_month` and `shipments_ytd` added inshell and shelled pounds into one figure and go. Commitments
 * and purchases under contract get a shelled column beside the existing (inshell) one.
 *
 * Existing rows get their new figures computed the way the server computes them (from the current certified
 * version of each earlier month), so no form shows an empty previous month after the upgrade.
 */
const FLOW_FIGURES = [
  'shipments_inshell_prev_month',
  'shipments_inshell_ytd',
  'shipments_shelled_prev_month',
  'shipments_shelled_ytd',
  'interhandler_shipped_prev_month',
  'interhandler_shipped_ytd',
  'interhandler_received_prev_month',
  'interhandler_received_ytd',
];
const SHELLED_STOCKS = ['committed_domestic_shelled', 'committed_export_shelled', 'under_contract_shelled'];
const OLD_SUMS = ['shipments_total', 'shipments_prev_month', 'shipments_ytd'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of [...FLOW_FIGURES, ...SHELLED_STOCKS]) {
    await db.schema
      .alterTable('apc_form_1')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  for (const column of OLD_SUMS) await db.schema.alterTable('apc_form_1').dropColumn(column).execute();
  await backfill(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of OLD_SUMS) {
    await db.schema
      .alterTable('apc_form_1')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  for (const column of [...FLOW_FIGURES, ...SHELLED_STOCKS])
    await db.schema.alterTable('apc_form_1').dropColumn(column).execute();
}

type Form1Row = Record<string, unknown> & { id: string; handler_id: string; form_status: string; period_month: string };

async function backfill(db: Kysely<unknown>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration's tables are not typed (it is frozen)
  const k = db as Kysely<any>;
  const rows = (await k
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    // Named columns, not f.*: a statement kept by the connection's cache expands * as the table was when it was
    // prepared, and a later migration adds columns (the test runs this again after them).
    .select([
      'f.id',
      'f.handler_id',
      'f.form_status',
      'p.period_month',
      'f.receipts_by_variety',
      'f.receipts_native',
      'f.receipts_substandard',
      'f.shipments_inshell',
      'f.shipments_shelled',
      'f.interhandler_shipped',
      'f.interhandler_received',
    ])
    .execute()) as Form1Row[];
  const certified = new Map<string, Map<string, Form1MonthFigures>>();
  for (const row of rows.filter((r) => r.form_status === 'certified')) {
    const byMonth = certified.get(row.handler_id) ?? new Map<string, Form1MonthFigures>();
    byMonth.set(String(row.period_month), figuresOf(row));
    certified.set(row.handler_id, byMonth);
  }
  for (const row of rows) {
    const context = form1Context(String(row.period_month), certified.get(row.handler_id) ?? new Map());
    const computed = computeForm1(enteredOf(row), context) as unknown as Record<string, number>;
    await k
      .updateTable('apc_form_1')
      .set(Object.fromEntries(FLOW_FIGURES.map((c) => [c, computed[c]])))
      .where('id', '=', row.id)
      .execute();
  }
}

const n = (v: unknown): number => Number(v ?? 0);
const enteredOf = (row: Form1Row) => ({
  receipts_by_variety: JSON.parse(String(row.receipts_by_variety ?? '[]')) as Array<{
    variety: string;
    pounds: number;
  }>,
  receipts_native: n(row.receipts_native),
  receipts_substandard: n(row.receipts_substandard),
  shipments_inshell: n(row.shipments_inshell),
  shipments_shelled: n(row.shipments_shelled),
  interhandler_shipped: n(row.interhandler_shipped),
  // Form 1's shipments became lines later (migration 013) and its total their sum: the stored total stands for them.
  interhandler_shipments: [
    { receiving_handler: '', pecan_type: 'improved' as const, pounds: n(row.interhandler_shipped) },
  ],
  interhandler_received: n(row.interhandler_received),
});
const figuresOf = (row: Form1Row): Form1MonthFigures => form1MonthFigures(enteredOf(row));

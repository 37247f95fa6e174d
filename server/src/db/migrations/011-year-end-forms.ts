import { sql, type Kysely } from 'kysely';
import { monthlyDueDate } from '@pecan/contract';

/**
 * Forms 4 and 5 against the regulation, and what goes with them (docs/FORMS-YEAR-END.md):
 * - apc_form_5: average prices paid to four places (ten-thousandths of a dollar, `_e4`) in place of whole cents;
 *   shelled uncommitted inventory and committed / uncommitted inventory on an inshell basis (986.175(a)); the
 *   August Form 1's inventory the form is compared with (null: no certified August Form 1).
 * - apc_form_4: its due date, the 10th of the month after the first transfer (986.162), or the next business day.
 * - seasons: closed (a closed season's filings are amended only after staff reopen it).
 * - reminders_sent: attempts and the time of the next one, so a failed send is retried with backoff.
 * Existing rows get their new computed figures here, with the same arithmetic as the contract's computeForm5.
 */
const PRICES = ['avg_price_paid_improved', 'avg_price_paid_native', 'avg_price_paid_substandard'];

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  for (const p of PRICES) {
    await s
      .alterTable('apc_form_5')
      .addColumn(`${p}_e4`, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql.raw(`update apc_form_5 set ${p}_e4 = ${p}_cents * 100`).execute(db);
    await s.alterTable('apc_form_5').dropColumn(`${p}_cents`).execute();
  }
  for (const c of ['shelled_uncommitted', 'committed_inshell_basis', 'uncommitted_inshell_basis']) {
    await s
      .alterTable('apc_form_5')
      .addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0))
      .execute();
  }
  for (const c of ['aug_form_1_inventory_inshell', 'aug_form_1_inventory_shelled']) {
    await s.alterTable('apc_form_5').addColumn(c, 'bigint').execute();
  }
  // shelled / yield rounded half up, in integers: (x * 10000 * 2 + y) / (y * 2); no yield: the default 0.5.
  const yieldE4 = 'case when shellout_yield_e4 > 0 then shellout_yield_e4 else 5000 end';
  const committedShelled = '(shelled_committed_domestic + shelled_committed_export)';
  await sql
    .raw(
      `update apc_form_5 set
    shelled_uncommitted = case when shelled_inventory > ${committedShelled} then shelled_inventory - ${committedShelled} else 0 end,
    committed_inshell_basis = inshell_committed_domestic + inshell_committed_export
      + (${committedShelled} * 20000 + ${yieldE4}) / (${yieldE4} * 2)`,
    )
    .execute(db);
  await sql
    .raw(
      `update apc_form_5 set uncommitted_inshell_basis =
    case when total_inventory_inshell_basis > committed_inshell_basis then total_inventory_inshell_basis - committed_inshell_basis else 0 end`,
    )
    .execute(db);

  await s.alterTable('apc_form_4').addColumn('due_date', 'text').execute();
  const agreements = await sql<{
    id: string;
    first_transfer_month: string;
  }>`select id, first_transfer_month from apc_form_4 where first_transfer_month is not null`.execute(db);
  for (const r of agreements.rows) {
    await sql`update apc_form_4 set due_date = ${monthlyDueDate(r.first_transfer_month)} where id = ${r.id}`.execute(
      db,
    );
  }

  await s
    .alterTable('seasons')
    .addColumn('season_closed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await s
    .alterTable('reminders_sent')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await s.alterTable('reminders_sent').addColumn('next_attempt_at', 'text').execute();
  await s.createIndex('reminders_sent_retry').on('reminders_sent').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropIndex('reminders_sent_retry').execute();
  await s.alterTable('reminders_sent').dropColumn('next_attempt_at').execute();
  await s.alterTable('reminders_sent').dropColumn('attempts').execute();
  await s.alterTable('seasons').dropColumn('season_closed').execute();
  await s.alterTable('apc_form_4').dropColumn('due_date').execute();
  for (const c of [
    'aug_form_1_inventory_shelled',
    'aug_form_1_inventory_inshell',
    'uncommitted_inshell_basis',
    'committed_inshell_basis',
    'shelled_uncommitted',
  ]) {
    await s.alterTable('apc_form_5').dropColumn(c).execute();
  }
  for (const p of PRICES) {
    await s
      .alterTable('apc_form_5')
      .addColumn(`${p}_cents`, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    // Back to whole cents, half up: what a four-place price loses going down is written in the docs.
    await sql.raw(`update apc_form_5 set ${p}_cents = (${p}_e4 + 50) / 100`).execute(db);
    await s.alterTable('apc_form_5').dropColumn(`${p}_e4`).execute();
  }
}

import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * The initial schema, the same on SQLite and PostgreSQL (Kysely's portable schema builder).
 * Conventions: ids are UUID text; timestamps are ISO 8601 text in UTC ("2026-10-10T14:03:00+00:00"), which sorts
 * correctly as text on both databases; dates are YYYY-MM-DD text; pounds are integers; money is integer cents
 * (bigint) and ratios are integer ten-thousandths, never floats. Booleans are `boolean` (SQLite stores 0/1).
 *
 * The form field columns are written out here, frozen, rather than generated from the contract's field list: a
 * migration must not change when the contract does. A new field is a new migration.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration's tables are not typed (it is frozen)
type Table = CreateTableBuilder<string, any>;

const node = (t: Table): Table =>
  t
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('changed', 'text', (c) => c.notNull());

const ref = (t: Table, column: string, table: string, notNull = true): Table =>
  t.addColumn(column, 'text', (c) => {
    const r = c.references(`${table}.id`);
    return notNull ? r.notNull() : r;
  });

const pounds = (t: Table, ...names: string[]): Table =>
  names.reduce((acc, n) => acc.addColumn(n, 'bigint', (c) => c.notNull().defaultTo(0)), t);
const money = (t: Table, ...names: string[]): Table =>
  names.reduce((acc, n) => acc.addColumn(`${n}_cents`, 'bigint', (c) => c.notNull().defaultTo(0)), t);
const dates = (t: Table, ...names: string[]): Table => names.reduce((acc, n) => acc.addColumn(n, 'text'), t);
const bools = (t: Table, ...names: string[]): Table =>
  names.reduce((acc, n) => acc.addColumn(n, 'boolean', (c) => c.notNull().defaultTo(false)), t);

/** What every APC form version carries: status, certification stamp, amendment chain, rendered PDF. */
const formVersion = (t: Table, pdfColumn: string): Table => {
  let r = t
    .addColumn('form_status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('certified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('certification_name', 'text')
    .addColumn('certification_title', 'text')
    .addColumn('certification_datetime', 'text')
    .addColumn('amendment_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amendment_reason', 'text');
  r = ref(r, pdfColumn, 'files', false);
  return r;
};

/** PostgreSQL has no `blob`; SQLite has no `bytea`. */
function binaryType(db: Kysely<unknown>): 'bytea' | 'blob' {
  return db.getExecutor().adapter.constructor.name.startsWith('Postgres') ? 'bytea' : 'blob';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;

  await s
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('filemime', 'text', (c) => c.notNull())
    .addColumn('filesize', 'bigint', (c) => c.notNull())
    // Which node the file belongs to: a file is readable by whoever may read that node.
    .addColumn('owner_type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', binaryType(db), (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('files_owner').on('files').columns(['owner_type', 'owner_id']).execute();

  await node(s.createTable('handlers'))
    .addColumn('handler_number', 'text', (c) => c.notNull().unique())
    .addColumn('handler_status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('show_in_handler_directory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('address', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('website', 'text')
    .execute();

  await ref(node(s.createTable('users')), 'handler_id', 'handlers', false)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('mail', 'text', (c) => c.unique())
    .addColumn('pass_hash', 'text')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('handler'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_title', 'text')
    .addColumn('phone', 'text')
    .addColumn('show_in_directory', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await s.createIndex('users_handler').on('users').columns(['handler_id', 'show_in_directory']).execute();

  // OAuth 2: clients, token families (one per sign-in), and tokens kept only as SHA-256 hashes.
  await s
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('oauth_token_families')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id'))
    .addColumn('scope', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await s.createIndex('oauth_token_families_user').on('oauth_token_families').column('user_id').execute();
  await s
    .createTable('oauth_access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull().references('oauth_token_families.id'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('oauth_access_tokens_family').on('oauth_access_tokens').column('family_id').execute();
  await s
    .createTable('oauth_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull().references('oauth_token_families.id'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('oauth_refresh_tokens_family').on('oauth_refresh_tokens').column('family_id').execute();
  // Failed sign-ins, per username and per address, for throttling across replicas.
  await s
    .createTable('login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('throttle_key', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('login_failures_key').on('login_failures').columns(['throttle_key', 'failed_at']).execute();

  await node(s.createTable('seasons'))
    .addColumn('season_start_date', 'text', (c) => c.notNull())
    .addColumn('season_end_date', 'text', (c) => c.notNull())
    .addColumn('reporting_due_date', 'text', (c) => c.notNull())
    .addColumn('current_season', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await s.createIndex('seasons_start').on('seasons').column('season_start_date').execute();

  await ref(node(s.createTable('reporting_periods')), 'season_id', 'seasons')
    .addColumn('period_month', 'text', (c) => c.notNull().unique())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('reporting_periods_season').on('reporting_periods').columns(['season_id', 'due_date']).execute();

  await ref(
    ref(node(s.createTable('reporting_forms_packages')), 'handler_id', 'handlers'),
    'period_id',
    'reporting_periods',
  )
    .addUniqueConstraint('reporting_forms_packages_handler_period', ['handler_id', 'period_id'])
    .execute();
  await s.createIndex('reporting_forms_packages_period').on('reporting_forms_packages').column('period_id').execute();

  const monthlyForm = (table: string) =>
    ref(
      ref(
        ref(ref(node(s.createTable(table)), 'package_id', 'reporting_forms_packages'), 'handler_id', 'handlers'),
        'period_id',
        'reporting_periods',
      ),
      'amendment_of_id',
      table,
      false,
    );

  let f1 = formVersion(monthlyForm('apc_form_1'), 'form_1_pdf_id');
  f1 = dates(f1, 'date_completed');
  f1 = bools(f1, 'no_change_flag');
  f1 = f1.addColumn('receipts_by_variety', 'text', (c) => c.notNull().defaultTo('[]'));
  f1 = pounds(
    f1,
    'receipts_native',
    'receipts_substandard',
    'receipts_improved',
    'receipts_total',
    'receipts_ytd_improved',
    'receipts_ytd_native',
    'receipts_ytd_substandard',
  );
  f1 = money(f1, 'assessment_due');
  f1 = pounds(
    f1,
    'shipments_inshell',
    'shipments_shelled',
    'interhandler_shipped',
    'interhandler_received',
    'shipments_total',
    'shipments_prev_month',
    'shipments_ytd',
    'inventory_inshell',
    'inventory_shelled',
    'committed_domestic',
    'committed_export',
    'under_contract_from_handlers',
  );
  await f1.execute();

  let f2 = formVersion(monthlyForm('apc_form_2'), 'form_2_pdf_id');
  f2 = dates(f2, 'date_completed', 'mexico_ship_date', 'mexico_return_date');
  f2 = bools(f2, 'no_change_flag');
  f2 = pounds(
    f2,
    'mexico_inshell_lb',
    'mexico_shelled_lb',
    'purchased_inshell_total',
    'purchased_shelled_total',
    'mexico_ytd_inshell_lb',
    'mexico_ytd_shelled_lb',
  );
  await f2.execute();

  let f3 = formVersion(monthlyForm('apc_form_3'), 'form_3_pdf_id');
  f3 = dates(f3, 'date_completed');
  f3 = bools(f3, 'no_change_flag');
  f3 = pounds(
    f3,
    'total_inshell_lb',
    'total_shelled_lb',
    'total_substandard_lb',
    'prior_inshell_lb',
    'prior_shelled_lb',
    'prior_substandard_lb',
    'ytd_inshell_lb',
    'ytd_shelled_lb',
    'ytd_substandard_lb',
  );
  await f3.execute();

  for (const table of ['apc_form_1', 'apc_form_2', 'apc_form_3']) {
    await s.createIndex(`${table}_package`).on(table).columns(['package_id', 'amendment_number']).execute();
    await s.createIndex(`${table}_handler_period`).on(table).columns(['handler_id', 'period_id']).execute();
    await s.createIndex(`${table}_period_status`).on(table).columns(['period_id', 'form_status']).execute();
  }

  // Sub-records of forms 2 and 3. handler_id is copied from the form so the access rule is one comparison.
  let nonUs = ref(
    ref(node(s.createTable('pecans_purchased_non_us')), 'form_id', 'apc_form_2'),
    'handler_id',
    'handlers',
  );
  nonUs = dates(nonUs, 'import_date')
    .addColumn('country_of_origin', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('variety', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0));
  nonUs = pounds(nonUs, 'inshell_lb', 'shelled_lb');
  await nonUs.execute();
  await s
    .createIndex('pecans_purchased_non_us_form')
    .on('pecans_purchased_non_us')
    .columns(['form_id', 'position'])
    .execute();

  let exports = ref(ref(node(s.createTable('export_by_country')), 'form_id', 'apc_form_3'), 'handler_id', 'handlers');
  exports = exports
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0));
  exports = pounds(exports, 'inshell_lb', 'shelled_lb', 'substandard_lb');
  await exports.execute();
  await s.createIndex('export_by_country_form').on('export_by_country').columns(['form_id', 'position']).execute();

  let f4 = ref(
    ref(
      ref(node(s.createTable('apc_form_4')), 'transferring_handler_id', 'handlers'),
      'receiving_handler_id',
      'handlers',
    ),
    'season_id',
    'seasons',
  );
  f4 = formVersion(f4, 'form_4_pdf_id')
    .addColumn('form_activity', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('responsible_handler', 'text', (c) => c.notNull().defaultTo('transferring'))
    .addColumn('first_transfer_month', 'text')
    .addColumn('receiving_certification_name', 'text')
    .addColumn('receiving_certification_datetime', 'text')
    .addColumn('cancelled_datetime', 'text');
  f4 = dates(f4, 'date_completed');
  await f4.execute();
  await s
    .createIndex('apc_form_4_transferring')
    .on('apc_form_4')
    .columns(['transferring_handler_id', 'season_id'])
    .execute();
  await s.createIndex('apc_form_4_receiving').on('apc_form_4').columns(['receiving_handler_id', 'season_id']).execute();

  let f5 = ref(
    ref(ref(node(s.createTable('apc_form_5')), 'handler_id', 'handlers'), 'season_id', 'seasons'),
    'amendment_of_id',
    'apc_form_5',
    false,
  );
  f5 = formVersion(f5, 'form_5_pdf_id');
  f5 = dates(f5, 'date_completed');
  f5 = pounds(
    f5,
    'inshell_inventory_improved',
    'inshell_inventory_native',
    'inshell_inventory_substandard',
    'inshell_committed_domestic',
    'inshell_committed_export',
    'inshell_uncommitted',
  );
  f5 = money(f5, 'avg_price_paid_improved', 'avg_price_paid_native', 'avg_price_paid_substandard');
  f5 = pounds(
    f5,
    'shelled_inventory',
    'shelled_committed_domestic',
    'shelled_committed_export',
    'shelled_halves',
    'shelled_pieces',
    'shelled_wip',
  );
  f5 = f5.addColumn('shellout_yield_e4', 'bigint', (c) => c.notNull().defaultTo(0));
  f5 = pounds(
    f5,
    'total_inventory_inshell_basis',
    'handled_domestic_improved',
    'handled_domestic_native',
    'handled_domestic_substandard',
  );
  f5 = money(f5, 'assessments_owed', 'assessments_paid', 'assessments_remaining');
  f5 = bools(f5, 'aug_form_1_amend_reqd');
  await f5.execute();
  await s
    .createIndex('apc_form_5_handler_season')
    .on('apc_form_5')
    .columns(['handler_id', 'season_id', 'amendment_number'])
    .execute();

  let invoices = ref(
    ref(ref(node(s.createTable('invoices')), 'handler_id', 'handlers'), 'period_id', 'reporting_periods'),
    'form_1_id',
    'apc_form_1',
    false,
  );
  invoices = ref(invoices, 'invoice_pdf_id', 'files', false)
    .addColumn('invoice_number', 'text', (c) => c.notNull().unique())
    .addColumn('amount_due_cents', 'bigint', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('invoice_status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('paid_date', 'text')
    .addColumn('paid_reference', 'text');
  await invoices.execute();
  await s.createIndex('invoices_handler').on('invoices').columns(['handler_id', 'due_date']).execute();
  await s.createIndex('invoices_period').on('invoices').columns(['period_id', 'invoice_status']).execute();

  await ref(ref(node(s.createTable('handler_packet_confirmations')), 'handler_id', 'handlers'), 'season_id', 'seasons')
    .addColumn('handler_packet_confirm', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('certification_datetime', 'text')
    .addColumn('certification_name', 'text')
    .addUniqueConstraint('handler_packet_confirmations_handler_season', ['handler_id', 'season_id'])
    .execute();

  await ref(
    ref(node(s.createTable('monthly_position_reports')), 'period_id', 'reporting_periods'),
    'position_report_pdf_id',
    'files',
    false,
  )
    .addColumn('publish_to_portal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('handlers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('monthly_position_reports_period', ['period_id'])
    .execute();
  await ref(
    ref(node(s.createTable('annual_position_reports')), 'season_id', 'seasons'),
    'position_report_pdf_id',
    'files',
    false,
  )
    .addColumn('handlers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('annual_position_reports_season', ['season_id'])
    .execute();
  await ref(
    ref(node(s.createTable('industry_analytics')), 'season_id', 'seasons'),
    'industry_analytics_xlsx_id',
    'files',
    false,
  )
    .addColumn('published_date', 'text')
    .addUniqueConstraint('industry_analytics_season', ['season_id'])
    .execute();
  await ref(
    ref(ref(node(s.createTable('handler_analytics')), 'handler_id', 'handlers'), 'season_id', 'seasons'),
    'analytics_xlsx_id',
    'files',
    false,
  )
    .addUniqueConstraint('handler_analytics_handler_season', ['handler_id', 'season_id'])
    .execute();

  // The reference list of improved varieties for form 1; staff extend it. "Other" is always there.
  await node(s.createTable('pecan_varieties'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await s.createIndex('pecan_varieties_title').on('pecan_varieties').column('title').unique().execute();
}

export async function down(): Promise<void> {
  throw new Error('The initial migration cannot be undone; restore a backup instead.');
}

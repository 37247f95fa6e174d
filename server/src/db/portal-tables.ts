import type { Generated, Kysely, SqlBool } from 'kysely';
import type { Db } from './database.js';

/**
 * The portal's tables as migrations 001-016 leave them (server/src/db/migrations/), for the code that writes SQL
 * against named tables: the workflows, the council endpoints, accounts and reminders. The JSON:API engine composes its
 * SQL from the resource registry and keeps the untyped `Db`. A new migration changes the interfaces here with it, and
 * PORTAL_COLUMNS (portal-columns.ts); portal-tables.test.ts holds both to the migrated database on both dialects.
 *
 * The types are what the drivers return on both databases:
 * - text, dates (YYYY-MM-DD) and timestamps (ISO 8601 in UTC) are strings;
 * - `integer` and `bigint` columns (pounds, cents, ten-thousandths) are numbers: better-sqlite3 returns numbers, and
 *   PostgreSQL's int8 is parsed as a number (openDatabase in db/database.ts);
 * - booleans are `SqlBool` (`boolean | 0 | 1`): PostgreSQL returns booleans, SQLite 0 or 1, and better-sqlite3
 *   binds no booleans, so a write passes `dbBool` (workflows/common.ts) and a read is tested with `isTrue`;
 * - JSON columns are their text, parsed by whoever reads them;
 * - `Generated<T>`: a column with a default, which an insert may leave out.
 */

/** What every node (a Drupal content entity: handler, season, form version...) carries. */
export interface NodeColumns {
  id: string;
  title: Generated<string>;
  created: string;
  changed: string;
}

/** What every APC form version carries: status, certification stamp and amendment chain (migration 001). */
export interface FormVersionColumns {
  /** draft, certified or superseded. */
  form_status: Generated<string>;
  certified: Generated<SqlBool>;
  certification_name: string | null;
  certification_title: string | null;
  certification_datetime: string | null;
  amendment_number: Generated<number>;
  amendment_reason: string | null;
}

export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  mail: string | null;
  created: string;
  expires_at: string;
  used_at: string | null;
}

export interface AnnualPositionReportsTable extends NodeColumns {
  season_id: string;
  position_report_pdf_id: string | null;
  handlers_count: Generated<number>;
}

export interface ApcForm1Table extends NodeColumns, FormVersionColumns {
  package_id: string;
  handler_id: string;
  period_id: string;
  amendment_of_id: string | null;
  form_1_pdf_id: string | null;
  date_completed: string | null;
  no_change_flag: Generated<SqlBool>;
  /** JSON text: [{ variety, pounds }]. */
  receipts_by_variety: Generated<string>;
  receipts_native: Generated<number>;
  receipts_substandard: Generated<number>;
  receipts_improved: Generated<number>;
  receipts_total: Generated<number>;
  receipts_ytd_improved: Generated<number>;
  receipts_ytd_native: Generated<number>;
  receipts_ytd_substandard: Generated<number>;
  assessment_due_cents: Generated<number>;
  shipments_inshell: Generated<number>;
  shipments_shelled: Generated<number>;
  interhandler_shipped: Generated<number>;
  interhandler_received: Generated<number>;
  inventory_inshell: Generated<number>;
  inventory_shelled: Generated<number>;
  committed_domestic: Generated<number>;
  committed_export: Generated<number>;
  under_contract_from_handlers: Generated<number>;
  shipments_inshell_prev_month: Generated<number>;
  shipments_inshell_ytd: Generated<number>;
  shipments_shelled_prev_month: Generated<number>;
  shipments_shelled_ytd: Generated<number>;
  interhandler_shipped_prev_month: Generated<number>;
  interhandler_shipped_ytd: Generated<number>;
  interhandler_received_prev_month: Generated<number>;
  interhandler_received_ytd: Generated<number>;
  committed_domestic_shelled: Generated<number>;
  committed_export_shelled: Generated<number>;
  under_contract_shelled: Generated<number>;
  /** JSON text: [{ receiving_handler, pecan_type, pounds }] (migration 013). */
  interhandler_shipments: Generated<string>;
}

export interface ApcForm2Table extends NodeColumns, FormVersionColumns {
  package_id: string;
  handler_id: string;
  period_id: string;
  amendment_of_id: string | null;
  form_2_pdf_id: string | null;
  date_completed: string | null;
  mexico_ship_date: string | null;
  mexico_return_date: string | null;
  no_change_flag: Generated<SqlBool>;
  mexico_inshell_lb: Generated<number>;
  mexico_shelled_lb: Generated<number>;
  purchased_inshell_total: Generated<number>;
  purchased_shelled_total: Generated<number>;
  mexico_ytd_inshell_lb: Generated<number>;
  mexico_ytd_shelled_lb: Generated<number>;
}

export interface ApcForm3Table extends NodeColumns, FormVersionColumns {
  package_id: string;
  handler_id: string;
  period_id: string;
  amendment_of_id: string | null;
  form_3_pdf_id: string | null;
  date_completed: string | null;
  no_change_flag: Generated<SqlBool>;
  total_inshell_lb: Generated<number>;
  total_shelled_lb: Generated<number>;
  total_substandard_lb: Generated<number>;
  prior_inshell_lb: Generated<number>;
  prior_shelled_lb: Generated<number>;
  prior_substandard_lb: Generated<number>;
  ytd_inshell_lb: Generated<number>;
  ytd_shelled_lb: Generated<number>;
  ytd_substandard_lb: Generated<number>;
}

export interface ApcForm4Table extends NodeColumns, FormVersionColumns {
  transferring_handler_id: string;
  receiving_handler_id: string;
  season_id: string;
  form_4_pdf_id: string | null;
  form_activity: Generated<string>;
  responsible_handler: Generated<string>;
  first_transfer_month: string | null;
  receiving_certification_name: string | null;
  receiving_certification_datetime: string | null;
  cancelled_datetime: string | null;
  date_completed: string | null;
  due_date: string | null;
  receiving_certification_title: string | null;
  receiving_certified: Generated<SqlBool>;
}

export interface ApcForm5Table extends NodeColumns, FormVersionColumns {
  handler_id: string;
  season_id: string;
  amendment_of_id: string | null;
  form_5_pdf_id: string | null;
  date_completed: string | null;
  inshell_inventory_improved: Generated<number>;
  inshell_inventory_native: Generated<number>;
  inshell_inventory_substandard: Generated<number>;
  inshell_committed_domestic: Generated<number>;
  inshell_committed_export: Generated<number>;
  inshell_uncommitted: Generated<number>;
  shelled_inventory: Generated<number>;
  shelled_committed_domestic: Generated<number>;
  shelled_committed_export: Generated<number>;
  shelled_halves: Generated<number>;
  shelled_pieces: Generated<number>;
  shelled_wip: Generated<number>;
  shellout_yield_e4: Generated<number>;
  total_inventory_inshell_basis: Generated<number>;
  handled_domestic_improved: Generated<number>;
  handled_domestic_native: Generated<number>;
  handled_domestic_substandard: Generated<number>;
  assessments_owed_cents: Generated<number>;
  assessments_paid_cents: Generated<number>;
  assessments_remaining_cents: Generated<number>;
  avg_price_paid_improved_e4: Generated<number>;
  avg_price_paid_native_e4: Generated<number>;
  avg_price_paid_substandard_e4: Generated<number>;
  shelled_uncommitted: Generated<number>;
  committed_inshell_basis: Generated<number>;
  uncommitted_inshell_basis: Generated<number>;
  /** Null: no certified August form 1 to compare with. */
  aug_form_1_inventory_inshell: number | null;
  aug_form_1_inventory_shelled: number | null;
  /** Null until the handler answers (migration 015). */
  aug_form_1_amend_reqd: SqlBool | null;
}

export interface ApiClientTokensTable {
  token_hash: string;
  client_id: string;
  scope: string;
  created: string;
  expires_at: string;
}

export interface ApiClientsTable {
  id: string;
  handler_id: string;
  name: string;
  scope: string;
  secret_hash: string;
  secret_created: string;
  previous_secret_hash: string | null;
  previous_secret_expires_at: string | null;
  created: string;
  created_by: string | null;
  last_used: string | null;
  revoked_at: string | null;
}

export interface AuditLogTable {
  id: string;
  occurred_at: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_role: string | null;
  entity_type: string;
  entity_id: string;
  action: string;
  handler_id: string | null;
  /** JSON text of the row before and after the change. */
  before_values: string | null;
  after_values: string | null;
}

export interface DataVersionTable {
  id: number;
  version: number;
  /** PostgreSQL: the transaction that last moved the version (db/data-version.ts). */
  bumped_by: number | null;
}

export interface DisclosurePublicationsTable {
  id: string;
  season_id: string;
  scope: string;
  revision: number;
  published_at: string;
  published_by: string | null;
  /** JSON text: the published figures. */
  figures: string;
}

/** A current certified form 1 whose carried figures are stale (migration 016, workflows/stale-year-to-date.ts). */
export interface Form1StaleYearToDateTable {
  /** The certified form 1 version. */
  form_id: string;
  handler_id: string;
  period_id: string;
  /** JSON text: the stale figures (contract `StaleFigure[]`), as the board shows them. */
  figures: string;
}

export interface ExportByCountryTable extends NodeColumns {
  form_id: string;
  handler_id: string;
  country: Generated<string>;
  position: Generated<number>;
  inshell_lb: Generated<number>;
  shelled_lb: Generated<number>;
  substandard_lb: Generated<number>;
}

export interface FilesTable {
  id: string;
  filename: string;
  filemime: string;
  filesize: number;
  owner_type: string;
  owner_id: string;
  sha256: string;
  content: Buffer;
  created: string;
}

export interface HandlerAnalyticsTable extends NodeColumns {
  handler_id: string;
  season_id: string;
  analytics_xlsx_id: string | null;
}

export interface HandlerPacketConfirmationsTable extends NodeColumns {
  handler_id: string;
  season_id: string;
  handler_packet_confirm: Generated<SqlBool>;
  certification_datetime: string | null;
  certification_name: string | null;
}

export interface HandlersTable extends NodeColumns {
  handler_number: string;
  handler_status: Generated<string>;
  show_in_handler_directory: Generated<SqlBool>;
  address: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
}

export interface IndustryAnalyticsTable extends NodeColumns {
  season_id: string;
  industry_analytics_xlsx_id: string | null;
  published_date: string | null;
}

export interface InvoicesTable extends NodeColumns {
  handler_id: string;
  period_id: string;
  form_1_id: string | null;
  invoice_pdf_id: string | null;
  invoice_number: string;
  amount_due_cents: number;
  due_date: string;
  /** The JSON:API allows these two only (resources/documents.ts). */
  invoice_status: Generated<'open' | 'paid'>;
  paid_date: string | null;
  paid_reference: string | null;
  /** JSON text: the invoice's inter-handler lines as issued (migration 013). */
  transfer_lines: Generated<string>;
}

export interface LoginFailuresTable {
  id: string;
  throttle_key: string;
  failed_at: string;
}

export interface MfaEnrollmentsTable {
  token_hash: string;
  user_id: string;
  secret: string;
  created: string;
  expires_at: string;
  used_at: string | null;
}

export interface MfaRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created: string;
  used_at: string | null;
}

export interface MonthlyPositionReportsTable extends NodeColumns {
  period_id: string;
  position_report_pdf_id: string | null;
  publish_to_portal: Generated<SqlBool>;
  handlers_count: Generated<number>;
}

export interface OauthAccessTokensTable {
  token_hash: string;
  family_id: string;
  expires_at: string;
  created: string;
}

export interface OauthClientsTable {
  id: string;
  label: string;
  secret_hash: string | null;
  created: string;
}

export interface OauthRefreshTokensTable {
  token_hash: string;
  family_id: string;
  expires_at: string;
  used_at: string | null;
  created: string;
}

export interface OauthTokenFamiliesTable {
  id: string;
  user_id: string;
  client_id: string;
  scope: string | null;
  created: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  address: string | null;
  last_used: string | null;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created: string;
  expires_at: string;
  used_at: string | null;
}

export interface PecanVarietiesTable extends NodeColumns {
  position: Generated<number>;
}

export interface PecansPurchasedNonUsTable extends NodeColumns {
  form_id: string;
  handler_id: string;
  import_date: string | null;
  country_of_origin: Generated<string>;
  variety: string | null;
  position: Generated<number>;
  inshell_lb: Generated<number>;
  shelled_lb: Generated<number>;
}

export interface RateLimitEventsTable {
  id: string;
  throttle_key: string;
  occurred_at: string;
}

export interface RemindersSentTable {
  id: string;
  kind: string;
  period_id: string;
  handler_id: string;
  user_id: string;
  mail_to: string;
  subject: string;
  due_date: string;
  claimed_at: string;
  sent_at: string | null;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: string | null;
}

export interface ReportingFormsPackagesTable extends NodeColumns {
  handler_id: string;
  period_id: string;
}

export interface ReportingPeriodsTable extends NodeColumns {
  season_id: string;
  period_month: string;
  due_date: string;
}

export interface SeasonsTable extends NodeColumns {
  season_start_date: string;
  season_end_date: string;
  reporting_due_date: string;
  current_season: Generated<SqlBool>;
  season_closed: Generated<SqlBool>;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface UserTotpTable {
  user_id: string;
  secret: string;
  enrolled_at: string;
  last_step: Generated<number>;
}

export interface UsersTable extends NodeColumns {
  handler_id: string | null;
  name: string;
  mail: string | null;
  pass_hash: string | null;
  role: Generated<string>;
  status: Generated<string>;
  first_name: Generated<string>;
  last_name: Generated<string>;
  job_title: string | null;
  phone: string | null;
  show_in_directory: Generated<SqlBool>;
  mail_verified_at: string | null;
  handler_admin: Generated<SqlBool>;
}

export interface PortalTables {
  account_tokens: AccountTokensTable;
  annual_position_reports: AnnualPositionReportsTable;
  apc_form_1: ApcForm1Table;
  apc_form_2: ApcForm2Table;
  apc_form_3: ApcForm3Table;
  apc_form_4: ApcForm4Table;
  apc_form_5: ApcForm5Table;
  api_client_tokens: ApiClientTokensTable;
  api_clients: ApiClientsTable;
  audit_log: AuditLogTable;
  data_version: DataVersionTable;
  disclosure_publications: DisclosurePublicationsTable;
  export_by_country: ExportByCountryTable;
  files: FilesTable;
  form1_stale_year_to_date: Form1StaleYearToDateTable;
  handler_analytics: HandlerAnalyticsTable;
  handler_packet_confirmations: HandlerPacketConfirmationsTable;
  handlers: HandlersTable;
  industry_analytics: IndustryAnalyticsTable;
  invoices: InvoicesTable;
  login_failures: LoginFailuresTable;
  mfa_enrollments: MfaEnrollmentsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  monthly_position_reports: MonthlyPositionReportsTable;
  oauth_access_tokens: OauthAccessTokensTable;
  oauth_clients: OauthClientsTable;
  oauth_refresh_tokens: OauthRefreshTokensTable;
  oauth_token_families: OauthTokenFamiliesTable;
  password_reset_tokens: PasswordResetTokensTable;
  pecan_varieties: PecanVarietiesTable;
  pecans_purchased_non_us: PecansPurchasedNonUsTable;
  rate_limit_events: RateLimitEventsTable;
  reminders_sent: RemindersSentTable;
  reporting_forms_packages: ReportingFormsPackagesTable;
  reporting_periods: ReportingPeriodsTable;
  seasons: SeasonsTable;
  settings: SettingsTable;
  user_totp: UserTotpTable;
  users: UsersTable;
}

export type PortalTableName = keyof PortalTables;

/** The database as the workflows see it (a write's transaction or not: a Transaction is a Kysely). */
export type PortalDb = Kysely<PortalTables>;

/**
 * The one place where the engine's untyped database (`AppContext.db`, which may be a write's transaction) is seen
 * with the portal's tables. The JSON:API engine composes SQL over any table a resource names, so the context keeps
 * `Kysely<any>`; code that names its tables takes it through here. (TypeScript would also let `ctx.db` pass where a
 * PortalDb is asked, being `any`-typed: this function is where the conversion is meant to be seen.)
 */
export const portalDb = (db: Db): PortalDb => db;

/**
 * The other way, for the few statements over a table or columns chosen at run time (a form's sums over the columns a
 * report asks for, the same statement over forms 1, 2 and 3): Kysely cannot check those, as it cannot the engine's.
 */
export const anyTableDb = (db: PortalDb): Db => db;

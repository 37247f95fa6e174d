/**
 * The answers of the council console's endpoints and of the account endpoints (docs/COUNCIL-API.md), as both the
 * server that writes them and the web app that reads them see them: types and a few value lists, no zod, so that the
 * web app may import it.
 */

import type { StaleFigure } from '../compute/form-1-stale.js';

export type UserRole = 'handler' | 'staff';
/** `pending` and `refused` are account requests (decided under /api/council/account-requests). */
export type UserStatus = 'active' | 'blocked' | 'pending' | 'refused';

export interface CouncilUser {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string | null;
  job_title: string | null;
  phone: string | null;
  role: UserRole;
  status: UserStatus;
  handler_id: string | null;
  handler_number: string | null;
  handler_name: string | null;
  /** A handler user who manages the company's API clients (docs/API-CLIENTS.md); always false for staff. */
  handler_admin: boolean;
  created: string;
  changed: string;
}

export interface Season {
  id: string;
  title: string;
  start_date: string;
  end_date: string;
  reporting_due_date: string;
  current: boolean;
  /** A closed season's filings are amended only after staff reopen it. */
  closed: boolean;
}

export interface CalendarPeriod {
  id: string;
  title: string;
  period_month: string;
  due_date: string;
  /** How many handlers the month was opened for. */
  packages: number;
}

export interface Calendar {
  season: Season;
  year_end_due_date: string;
  periods: CalendarPeriod[];
}

export const BOARD_STATUSES = ['not_started', 'draft', 'certified', 'amended', 'overdue'] as const;

/** What a reminder was sent for, and where it stands (the reminders page's filters; the server checks them). */
export const REMINDER_KINDS = [
  'due_soon',
  'overdue',
  'form_4_due_soon',
  'form_4_overdue',
  'form_5_due_soon',
  'form_5_overdue',
  'sent_now',
] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
export const REMINDER_STATUSES = ['sent', 'claimed', 'retrying', 'failed', 'cancelled'] as const;
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];
export type BoardStatus = (typeof BOARD_STATUSES)[number];
export type BoardForm = 'apc_form_1' | 'apc_form_2' | 'apc_form_3' | 'apc_form_5';

export interface BoardRow {
  handler_id: string;
  handler_number: string;
  handler_name: string;
  form: BoardForm;
  status: BoardStatus;
  due_date: string;
  /** The last version (a draft amendment when one is in progress); null when the handler has no version. */
  current_version_id: string | null;
  /** The certified version that counts (the latest certified one), if any. */
  certified_version_id: string | null;
  certified_at: string | null;
  /** Versions after the first (amendments, certified or in progress). */
  amendments: number;
  amendment_in_progress: boolean;
  /** Why the latest amendment (certified or in progress) was made; null when there is none. */
  amendment_reason: string | null;
  /**
   * Form 1 only: the certified version's previous-month and season-to-date figures that an amendment of an earlier
   * month has made stale, each with its corrected value; null when none is (or for forms 2 and 3).
   */
  stale_year_to_date: StaleFigure[] | null;
}

export interface Board {
  scope:
    { kind: 'period'; id: string; period_month: string; title: string } | { kind: 'season'; id: string; title: string };
  due_date: string;
  forms: BoardForm[];
  /** Over every row of the board (of `handler` when given), before the status, search and page. */
  counts: Record<BoardStatus, number>;
  /** The rows of the page's handler lines: a handler's rows (one per form) are never split across pages. */
  data: BoardRow[];
  meta: BoardMeta;
}

export interface BoardMeta {
  /** Handler lines that match `status` and `q` (the pager's total). */
  total_handlers: number;
  page: number;
  /** Handler lines a page; null when the board is not paged (every line on page 1). */
  per_page: number | null;
  pages: number;
}

export interface InvoiceRow {
  id: string;
  invoice_number: string;
  handler_id: string;
  handler_number: string;
  handler_name: string;
  period_id: string;
  period_month: string;
  season_id: string;
  /** Decimal string; a credit for an amendment is negative. */
  amount_due: string;
  due_date: string;
  status: 'open' | 'paid';
  paid_date: string | null;
  paid_reference: string | null;
  form_1_id: string | null;
  created: string;
}

/** One of the signed-in user's sessions (a sign-in and its refreshes): GET /api/account/sessions. */
export interface ActiveSession {
  id: string;
  created: string;
  /** The sign-in or the latest refresh (access tokens are refreshed every few minutes while the app is open). */
  last_used: string;
  expires_at: string;
  client: string;
  user_agent: string | null;
  address: string | null;
  /** The session making this request. */
  current: boolean;
}

/** An API client of a handler, as the account and council endpoints list it (docs/API-CLIENTS.md). */
export interface ApiClient {
  id: string;
  handler_id: string;
  name: string;
  scope: 'read' | 'read write';
  created: string;
  last_used: string | null;
  secret_created: string;
  previous_secret_expires_at: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked';
}

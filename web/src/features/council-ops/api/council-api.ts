import { authorizedFetch } from '../../../lib/http/authorized-fetch';

/**
 * Calls to the council's staff endpoints (/api/council/..., plain JSON, docs/COUNCIL-API.md) with the bearer
 * token: on a 401 the token is refreshed once and the call retried once, as the JSON:API client does.
 */
export type Params = Record<string, string | number | undefined | null>;

export function withQuery(path: string, params: Params = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export async function councilGet<T>(path: string, params?: Params, signal?: AbortSignal): Promise<T> {
  const response = await authorizedFetch(withQuery(`/api/council${path}`, params), {
    signal,
    headers: { Accept: 'application/json' },
  });
  return (await response.json()) as T;
}

export async function councilPost<T>(path: string, body: unknown): Promise<T> {
  const response = await authorizedFetch(`/api/council${path}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** Saves a blob under a file name (a link clicked in code, then let go). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A CSV export: it needs the bearer token, so it is fetched and saved as a blob rather than opened as a link. */
export async function downloadCsv(path: string, params: Params, filename: string): Promise<void> {
  const response = await authorizedFetch(withQuery(`/api/council${path}`, params), { headers: { Accept: 'text/csv' } });
  saveBlob(await response.blob(), filename);
}

// ---- Shapes of the answers (docs/COUNCIL-API.md) ----

// The answers' shapes are the contract's (the server writes them from the same types).
export { BOARD_STATUSES } from '@pecan/contract/api/council';
export type {
  Board,
  BoardRow,
  BoardStatus,
  Calendar,
  CalendarPeriod,
  InvoiceRow,
  Season,
  BoardForm as FormBundle,
} from '@pecan/contract/api/council';
import type { BoardForm as FormBundle } from '@pecan/contract/api/council';

export interface FilingVersion {
  id: string;
  type: string;
  title: string;
  amendment_number: number;
  form_status: string;
  certified_at: string | null;
  certification_name: string | null;
  amendment_reason: string | null;
  created: string;
  changed: string;
  attributes: Record<string, unknown>;
  changed_fields: string[];
}
export interface FilingVersions {
  bundle: FormBundle;
  handler: { id: string; handler_number: string; name: string };
  scope: { period_id?: string | null; season_id?: string | null };
  versions: FilingVersion[];
}

export interface Sums {
  billed: string;
  paid: string;
  open: string;
  invoices: number;
}
export interface InvoiceTotals extends Sums {
  season: { id: string; title: string };
  by_handler: Array<Sums & { handler_id: string; handler_number: string; handler_name: string }>;
}

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
export interface ReminderRow {
  id: string;
  kind: ReminderKind;
  status: ReminderStatus;
  to: string;
  subject: string;
  due_date: string;
  claimed_at: string;
  sent_at: string | null;
  attempts: number;
  next_attempt_at: string | null;
  period_id: string;
  period_month: string;
  handler_id: string;
  handler_number: string;
  handler_name: string;
  user_id: string;
  username: string;
}
export interface Paged<T> {
  data: T[];
  meta: { total: number; page: number; per_page: number; pages?: number };
}

export interface AuditEntry {
  id: string;
  occurred_at: string;
  actor: { id: string; name: string; role: string } | null;
  type: string;
  resource_type: string | null;
  entity_id: string;
  /** The username when the entry is about a user. */
  entity_name?: string | null;
  action: string;
  handler_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface StoredFile {
  id: string;
  filename: string;
  mime: string;
  size: number;
  created: string;
  url: string;
}
export interface GeneratedDoc {
  id: string;
  kind: 'monthly' | 'annual' | 'industry';
  title: string;
  generated_at: string;
  changed: string;
  file: StoredFile | null;
  period_id?: string;
  period_month?: string;
  period_title?: string;
  handlers_count?: number;
  publish_to_portal?: boolean;
  published_date?: string | null;
}
export interface ReportsList {
  season: { id: string; title: string; current: boolean };
  monthly: GeneratedDoc[];
  annual: GeneratedDoc[];
  industry_analytics: GeneratedDoc[];
}
export interface ReportSources {
  report: { id: string; kind: string; title: string; generated_at: string; file: StoredFile | null };
  months: string[];
  forms: FormBundle[];
  handlers: Array<{
    handler_id: string;
    handler_number: string;
    handler_name: string;
    filings: Array<{
      form: FormBundle;
      period_month: string | null;
      version_id: string;
      amendment_number: number;
      certified_at: string;
    }>;
  }>;
}

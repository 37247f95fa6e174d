import { queryOptions } from '@tanstack/react-query';
import { authorizedFetch } from '../../../lib/http/authorized-fetch';
import { councilApi, withQuery, type QueryParams } from '../../../lib/http/json';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';
import { councilKeys } from '../../../lib/query-keys';
import type { ReminderKind, ReminderStatus } from '@pecan/contract/api/council';
import type {
  InvoicePaidInput,
  PeriodMonthInput,
  PublishInput,
  SeasonIdInput,
} from '@pecan/contract/api/council-requests';

export type Params = QueryParams;

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
import type { Board, BoardForm as FormBundle, Calendar, InvoiceRow, Season } from '@pecan/contract/api/council';

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

export { REMINDER_KINDS, REMINDER_STATUSES } from '@pecan/contract/api/council';
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

// ---- Reads (query keys and options) and writes (docs/COUNCIL-API.md) ----

/** The operations pages' query keys: all under 'council' (lib/query-keys.ts), each list's filters last. */
export const councilOpsKeys = {
  board: (params: Params) => [...councilKeys.all, 'board', params] as const,
  invoices: [...councilKeys.all, 'invoices'] as const,
  invoiceTotals: (seasonId: string) => [...councilKeys.all, 'invoices', 'totals', seasonId] as const,
  invoiceList: (params: Params) => [...councilKeys.all, 'invoices', 'list', params] as const,
  audit: (params: Params) => [...councilKeys.all, 'audit', params] as const,
  handlerNames: [...councilKeys.all, 'handler-names'] as const,
  reminders: [...councilKeys.all, 'reminders'] as const,
  reminderList: (params: Params) => [...councilKeys.all, 'reminders', params] as const,
  reports: [...councilKeys.all, 'reports'] as const,
  reportList: (seasonId: string | undefined) => [...councilKeys.all, 'reports', 'list', seasonId] as const,
  reportSources: (doc: GeneratedDoc) =>
    [...councilKeys.all, 'reports', 'sources', doc.kind, doc.id, doc.generated_at] as const,
  filingVersions: (bundle: string, versionId: string) =>
    [...councilKeys.all, 'filing-versions', bundle, versionId] as const,
};

export const councilSeasonsQuery = () =>
  queryOptions({
    queryKey: councilKeys.seasons,
    queryFn: ({ signal }) => councilApi.get<{ data: Season[] }>('/seasons', { signal }).then((r) => r.data),
  });

export const calendarQuery = (seasonId: string | undefined) =>
  queryOptions({
    queryKey: councilKeys.calendar(seasonId),
    queryFn: ({ signal }) => councilApi.get<Calendar>('/calendar', { params: { season_id: seasonId }, signal }),
  });

export const boardQuery = (params: Params) =>
  queryOptions({
    queryKey: councilOpsKeys.board(params),
    queryFn: ({ signal }) => councilApi.get<Board>('/board', { params, signal }),
  });

export const invoiceTotalsQuery = (seasonId: string) =>
  queryOptions({
    queryKey: councilOpsKeys.invoiceTotals(seasonId),
    queryFn: ({ signal }) =>
      councilApi.get<InvoiceTotals>('/invoices/totals', { params: { season_id: seasonId }, signal }),
  });

export const invoiceListQuery = (params: Params) =>
  queryOptions({
    queryKey: councilOpsKeys.invoiceList(params),
    queryFn: ({ signal }) => councilApi.get<{ data: InvoiceRow[] }>('/invoices', { params, signal }),
  });

export const auditQuery = (params: Params) =>
  queryOptions({
    queryKey: councilOpsKeys.audit(params),
    queryFn: ({ signal }) => councilApi.get<Paged<AuditEntry>>('/audit', { params, signal }),
  });

/** Every handler's number and name, read once through the JSON:API (the audit log names handlers with them). */
export const handlerNamesQuery = () =>
  queryOptions({
    queryKey: councilOpsKeys.handlerNames,
    queryFn: ({ signal }) =>
      jsonApi.getAll<ApiEntity<'node--handler'>>(
        '/jsonapi/node/handler',
        new DrupalJsonApiParams().addFields('node--handler', ['title', 'field_handler_number']).addPageLimit(200),
        signal,
      ),
    staleTime: 5 * 60_000,
  });

export const remindersQuery = (params: Params) =>
  queryOptions({
    queryKey: councilOpsKeys.reminderList(params),
    queryFn: ({ signal }) => councilApi.get<Paged<ReminderRow>>('/reminders', { params, signal }),
  });

export const reportListQuery = (seasonId: string | undefined) =>
  queryOptions({
    queryKey: councilOpsKeys.reportList(seasonId),
    queryFn: ({ signal }) => councilApi.get<ReportsList>('/reports', { params: { season_id: seasonId }, signal }),
  });

export const reportSourcesQuery = (doc: GeneratedDoc) =>
  queryOptions({
    queryKey: councilOpsKeys.reportSources(doc),
    queryFn: ({ signal }) => councilApi.get<ReportSources>(`/reports/${doc.kind}/${doc.id}/sources`, { signal }),
  });

export const filingVersionsQuery = (bundle: string, versionId: string) =>
  queryOptions({
    queryKey: councilOpsKeys.filingVersions(bundle, versionId),
    queryFn: ({ signal }) =>
      councilApi.get<FilingVersions>(
        `/filings/${encodeURIComponent(bundle)}/${encodeURIComponent(versionId)}/versions`,
        { signal },
      ),
  });

/** POST /invoices/:id/paid: the payment's date and reference. */
export const markInvoicePaid = (id: string, body: InvoicePaidInput) => councilApi.post(`/invoices/${id}/paid`, body);

/** POST /reports/monthly/:id/publish: shows the monthly report to handlers, or takes it back. */
export const publishMonthlyReport = (id: string, publish: boolean) =>
  councilApi.post(`/reports/monthly/${id}/publish`, { publish } satisfies PublishInput);

/** POST a generate call (/reports/monthly, /reports/annual, /analytics/industry). */
export const generateReport = (path: string, body: PeriodMonthInput | SeasonIdInput) =>
  councilApi.post<{ handlers_count?: number }>(path, body);

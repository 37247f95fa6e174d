import { ApiError } from '../../../lib/http/errors';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { deserialize } from '../../../lib/jsonapi/deserialize';
import type { ApiEntity } from '../../../lib/portal/entities';
import { authorizedFetch } from '../../../lib/http/authorized-fetch';

/**
 * The council console's people and season calls: plain JSON under /api/council (docs/COUNCIL-API.md) and the
 * handler records through the JSON:API. Errors are ApiError with the server's JSON:API errors (422 pointers).
 */

/** A call to /api/council/... with the bearer token; on 401 the token is refreshed once and the call retried. */
export async function council<T>(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await authorizedFetch(`/api/council${path}`, {
    method,
    signal,
    headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

const query = (params: Record<string, string | number | undefined | null>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

// ---- Account requests ----------------------------------------------------------------------------------------

export interface AccountRequest {
  id: string;
  username: string;
  name: string;
  email: string | null;
  handler_number: string | null;
  handler_name: string | null;
  requested: string;
}

export const fetchAccountRequests = (signal?: AbortSignal) =>
  council<{ data: AccountRequest[] }>('GET', '/account-requests', undefined, signal).then((r) => r.data);
export const approveAccount = (id: string) =>
  council<{ mail_sent: boolean }>('POST', `/account-requests/${encodeURIComponent(id)}/approve`);
export const refuseAccount = (id: string, reason: string) =>
  council<{ mail_sent: boolean }>('POST', `/account-requests/${encodeURIComponent(id)}/refuse`, {
    reason: reason.trim() || null,
  });

// The answers' shapes are the contract's (the server writes them from the same types).
export type { Calendar, CalendarPeriod, CouncilUser, Season, UserRole, UserStatus } from '@pecan/contract/api/council';
import type { Calendar, CalendarPeriod, CouncilUser, Season, UserRole, UserStatus } from '@pecan/contract/api/council';

// ---- Users ----------------------------------------------------------------------------------------------------

export interface UserFilters {
  q?: string;
  status?: UserStatus;
  role?: UserRole;
  handler?: string;
  page?: number;
}

export interface UserPage {
  data: CouncilUser[];
  meta: { total: number; page: number; per_page: number };
}

export const fetchUsers = (f: UserFilters, signal?: AbortSignal) =>
  council<UserPage>('GET', `/users${query({ ...f })}`, undefined, signal);

export interface UserInput {
  handler_admin?: boolean;
  username?: string;
  first_name?: string;
  last_name?: string | null;
  email?: string | null;
  job_title?: string | null;
  phone?: string | null;
  role?: UserRole;
  handler_number?: string | null;
  status?: 'active' | 'blocked';
}

export const createUser = (input: UserInput) =>
  council<{ data: CouncilUser; meta: { password_reset_sent: boolean } }>('POST', '/users', input);
export const updateUser = (id: string, input: UserInput) =>
  council<{ data: CouncilUser }>('PATCH', `/users/${encodeURIComponent(id)}`, input).then((r) => r.data);
export const sendPasswordReset = (id: string) =>
  council<{ email: string; mail_sent: boolean }>('POST', `/users/${encodeURIComponent(id)}/password-reset`);

// ---- Handlers (JSON:API) --------------------------------------------------------------------------------------

export type HandlerRecord = ApiEntity<'node--handler'>;

export interface HandlerValues {
  title: string;
  field_handler_number: string;
  field_handler_status: 'active' | 'inactive';
  field_show_in_handler_directory: boolean;
  field_address: string | null;
  field_phone: string | null;
  field_email: string | null;
  field_website: string | null;
}

/** Every handler record, active and inactive, by number (staff read them all). */
export const fetchHandlerRecords = (signal?: AbortSignal) =>
  jsonApi.getAll<HandlerRecord>(
    '/jsonapi/node/handler',
    new DrupalJsonApiParams().addSort('field_handler_number', 'ASC').addPageLimit(500),
    signal,
  );

async function writeHandler(
  method: 'POST' | 'PATCH',
  values: Partial<HandlerValues>,
  existing?: HandlerRecord,
): Promise<HandlerRecord> {
  const path = existing ? `/jsonapi/node/handler/${encodeURIComponent(existing.id)}` : '/jsonapi/node/handler';
  const data = {
    type: 'node--handler',
    ...(existing ? { id: existing.id, meta: { changed: existing.changed } } : {}),
    attributes: values,
  };
  const doc = await jsonApi.request(path, { method, body: { data } });
  const out = doc ? deserialize<HandlerRecord>(doc) : null;
  if (!out || Array.isArray(out)) throw new ApiError(500);
  return out;
}

export const createHandler = (values: HandlerValues) => writeHandler('POST', values);
export const updateHandler = (existing: HandlerRecord, values: Partial<HandlerValues>) =>
  writeHandler('PATCH', values, existing);

// ---- Seasons, periods, calendar -------------------------------------------------------------------------------

export const fetchSeasonList = (signal?: AbortSignal) =>
  council<{ data: Season[] }>('GET', '/seasons', undefined, signal).then((r) => r.data);
export const createSeason = (startYear: number) =>
  council<{ data: Season }>('POST', '/seasons', { start_year: startYear }).then((r) => r.data);
export const makeSeasonCurrent = (id: string) =>
  council<{ data: Season }>('POST', `/seasons/${encodeURIComponent(id)}/current`).then((r) => r.data);
/** Close a season (its filings can no longer be amended) or reopen it; the server keeps an audit entry of each. */
export const setSeasonClosed = (id: string, closed: boolean) =>
  council<{ data: Season }>('POST', `/seasons/${encodeURIComponent(id)}/${closed ? 'close' : 'reopen'}`).then(
    (r) => r.data,
  );
export const setYearEndDueDate = (id: string, date: string) =>
  council<{ data: Season }>('PATCH', `/seasons/${encodeURIComponent(id)}`, { reporting_due_date: date });
export const setPeriodDueDate = (id: string, date: string) =>
  council<unknown>('PATCH', `/periods/${encodeURIComponent(id)}`, { due_date: date });
export const openPeriod = (month: string) =>
  council<{ period_id: string; packages_created: number }>('POST', '/periods', { period_month: month });
export const fetchCalendar = (seasonId: string | null, signal?: AbortSignal) =>
  council<Calendar>('GET', `/calendar${query({ season_id: seasonId })}`, undefined, signal);

// ---- Helpers ---------------------------------------------------------------------------------------------------

/** The month after `month` (YYYY-MM). */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The month to open next in a season: the one after its last open month, or its first (September). */
export function monthToOpen(season: Season, periods: CalendarPeriod[]): string | null {
  const last = periods
    .map((p) => p.period_month)
    .sort()
    .at(-1);
  const next = last ? nextMonth(last) : season.start_date.slice(0, 7);
  return next <= season.end_date.slice(0, 7) ? next : null;
}

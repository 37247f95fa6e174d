import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { queryOptions } from '@tanstack/react-query';
import type { ApiEntity } from '../../../lib/portal/entities';
import type { NodeHandlerAttributes } from '@pecan/contract/entities/generated';
import { councilApi } from '../../../lib/http/json';
import { councilKeys } from '../../../lib/query-keys';
import type {
  NewUserInput,
  PeriodDueDateInput,
  PeriodMonthInput,
  RefusalInput,
  SeasonDueDateInput,
  SeasonInput,
  UserEditInput,
} from '@pecan/contract/api/council-requests';

/**
 * The council console's people and season calls: plain JSON under /api/council (docs/COUNCIL-API.md) and the
 * handler records through the JSON:API. Errors are ApiError with the server's JSON:API errors (422 pointers).
 */

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
  councilApi.get<{ data: AccountRequest[] }>('/account-requests', { signal }).then((r) => r.data);
export const approveAccount = (id: string) =>
  councilApi.post<{ mail_sent: boolean }>(`/account-requests/${encodeURIComponent(id)}/approve`);
export const refuseAccount = (id: string, reason: string) =>
  councilApi.post<{ mail_sent: boolean }>(`/account-requests/${encodeURIComponent(id)}/refuse`, {
    reason: reason.trim() || null,
  } satisfies RefusalInput);

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
  councilApi.get<UserPage>('/users', { params: { ...f }, signal });

/** What the users page posts: the contract's schemas' input (contract/src/api/council-requests.ts). */
export type { NewUserInput, UserEditInput } from '@pecan/contract/api/council-requests';

export const createUser = (input: NewUserInput) =>
  councilApi.post<{ data: CouncilUser; meta: { password_reset_sent: boolean } }>('/users', input);
export const updateUser = (id: string, input: UserEditInput) =>
  councilApi.patch<{ data: CouncilUser }>(`/users/${encodeURIComponent(id)}`, input).then((r) => r.data);
export const sendPasswordReset = (id: string) =>
  councilApi.post<{ email: string; mail_sent: boolean }>(`/users/${encodeURIComponent(id)}/password-reset`);

// ---- Handlers (JSON:API) --------------------------------------------------------------------------------------

export type HandlerRecord = ApiEntity<'node--handler'>;

/** What the handler drawer writes: the handler's own attributes, as the registry types them. */
export type HandlerValues = Pick<
  NodeHandlerAttributes,
  | 'title'
  | 'field_handler_number'
  | 'field_handler_status'
  | 'field_show_in_handler_directory'
  | 'field_address'
  | 'field_phone'
  | 'field_email'
  | 'field_website'
>;

/** Every handler record, active and inactive, by number (staff read them all). */
export const fetchHandlerRecords = (signal?: AbortSignal) =>
  jsonApi.getAll<HandlerRecord>(
    '/jsonapi/node/handler',
    new DrupalJsonApiParams().addSort('field_handler_number', 'ASC').addPageLimit(500),
    signal,
  );

export const createHandler = (values: HandlerValues) => jsonApi.create<HandlerRecord>('node--handler', { ...values });
export const updateHandler = (existing: HandlerRecord, values: Partial<HandlerValues>) =>
  jsonApi.update<HandlerRecord>('node--handler', existing.id, { ...values }, { changed: existing.changed });

// ---- Seasons, periods, calendar -------------------------------------------------------------------------------

export const fetchSeasonList = (signal?: AbortSignal) =>
  councilApi.get<{ data: Season[] }>('/seasons', { signal }).then((r) => r.data);
export const createSeason = (startYear: number) =>
  councilApi.post<{ data: Season }>('/seasons', { start_year: startYear } satisfies SeasonInput).then((r) => r.data);
export const makeSeasonCurrent = (id: string) =>
  councilApi.post<{ data: Season }>(`/seasons/${encodeURIComponent(id)}/current`).then((r) => r.data);
/** Close a season (its filings can no longer be amended) or reopen it; the server keeps an audit entry of each. */
export const setSeasonClosed = (id: string, closed: boolean) =>
  councilApi
    .post<{ data: Season }>(`/seasons/${encodeURIComponent(id)}/${closed ? 'close' : 'reopen'}`)
    .then((r) => r.data);
export const setYearEndDueDate = (id: string, date: string) =>
  councilApi.patch<{ data: Season }>(`/seasons/${encodeURIComponent(id)}`, {
    reporting_due_date: date,
  } satisfies SeasonDueDateInput);
export const setPeriodDueDate = (id: string, date: string) =>
  councilApi.patch<unknown>(`/periods/${encodeURIComponent(id)}`, { due_date: date } satisfies PeriodDueDateInput);
export const openPeriod = (month: string) =>
  councilApi.post<{ period_id: string; packages_created: number }>('/periods', {
    period_month: month,
  } satisfies PeriodMonthInput);
export const fetchCalendar = (seasonId: string | null, signal?: AbortSignal) =>
  councilApi.get<Calendar>('/calendar', { params: { season_id: seasonId }, signal });

// ---- Query keys and options ----------------------------------------------------------------------------------

/** The console's query keys: all under 'council' (lib/query-keys.ts), so a new current season refreshes them. */
export const councilAdminKeys = {
  accountRequests: [...councilKeys.all, 'account-requests'] as const,
  users: [...councilKeys.all, 'users'] as const,
  userPage: (f: UserFilters) => [...councilKeys.all, 'users', f] as const,
  handlerRecords: [...councilKeys.all, 'handlers'] as const,
};

export const accountRequestsQuery = () =>
  queryOptions({ queryKey: councilAdminKeys.accountRequests, queryFn: ({ signal }) => fetchAccountRequests(signal) });

export const usersQuery = (f: UserFilters) =>
  queryOptions({ queryKey: councilAdminKeys.userPage(f), queryFn: ({ signal }) => fetchUsers(f, signal) });

export const handlerRecordsQuery = () =>
  queryOptions({
    queryKey: councilAdminKeys.handlerRecords,
    queryFn: ({ signal }) => fetchHandlerRecords(signal),
    structuralSharing: false,
  });

export const seasonListQuery = () =>
  queryOptions({ queryKey: councilKeys.seasons, queryFn: ({ signal }) => fetchSeasonList(signal) });

export const calendarQuery = (seasonId: string) =>
  queryOptions({ queryKey: councilKeys.calendar(seasonId), queryFn: ({ signal }) => fetchCalendar(seasonId, signal) });

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

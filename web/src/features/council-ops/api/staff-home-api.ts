import type { RemindNowInput } from '@pecan/contract/api/council-requests';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { councilApi } from '../../../lib/http/json';
import { councilKeys } from '../../../lib/query-keys';

/** GET /api/council/home (docs/COUNCIL-API.md, "Staff home"): what needs the council staff today. */
export type FilingStatus = 'not_started' | 'draft' | 'certified' | 'amended' | 'overdue';
export interface StaffHome {
  today: string;
  month: {
    period_id: string;
    period_month: string;
    title: string;
    due_date: string;
    days_left: number;
    handlers: number;
    counts: Record<FilingStatus, number>;
  } | null;
  overdue_handlers: Array<{
    handler_id: string;
    handler_number: string;
    handler_name: string;
    months: Array<{ period_id: string; period_month: string; due_date: string }>;
  }>;
  amendments_waiting: { count: number; months: string[] };
  account_requests: { count: number };
  invoices: { unpaid: number; unpaid_total: string; overdue: number; overdue_total: string };
  reports_to_publish: Array<{
    id: string;
    period_id: string;
    period_month: string;
    title: string;
    handlers_count: number;
  }>;
  reminders: { since: string; sent: number; failed: number; retrying: number };
}

export const STAFF_HOME_KEY = [...councilKeys.all, 'home'] as const;

export const staffHomeQuery = () =>
  queryOptions({
    queryKey: STAFF_HOME_KEY,
    queryFn: ({ signal }) => councilApi.get<StaffHome>('/home', { signal }),
    // What needs staff moves while they look: refreshed every minute.
    refetchInterval: 60_000,
  });

export function useStaffHome() {
  return useQuery(staffHomeQuery());
}

export interface RemindNowResult {
  period_id: string;
  handler_id: string;
  kind: 'due_soon' | 'overdue';
  sent: string[];
  failed: string[];
  next_allowed_at: string;
}

/**
 * POST /api/council/reminders/now: the reminder e-mail to one handler's users now (409 when sent in the last 15
 * minutes).
 */
export const remindNow = (periodId: string, handler: string) =>
  councilApi.post<RemindNowResult>('/reminders/now', { period_id: periodId, handler } satisfies RemindNowInput);

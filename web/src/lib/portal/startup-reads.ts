import type { QueryClient } from '@tanstack/react-query';
import { deserialize, firstOf, nextLink, type Entity, type JsonApiDocument } from '../jsonapi/deserialize';
import { batchRead, type BatchAnswer } from '../jsonapi/subrequests';
import type { AuthTransport } from '../http/authorized-fetch';
import { ApiError } from '../http/errors';
import { one, many, type ApiEntity } from './entities';
import { openInvoicesKey, type Invoice } from './invoices';
import { awaitingCountersignatureKey } from './transfers-awaiting';
import { seasonIdOf, seasonPackagesKey, type FormsPackage } from './packages';
import { currentSeasonOf, type Season } from './seasons';
import { confirmationKey, newestReportKey, queryKeys } from '../query-keys';
import { STORAGE_KEYS } from '../session/keys';
import { sessionStore } from '../session/session-store';
import { startupReads } from './startup-read-list';

/**
 * The reads that fill the dashboard, made at sign-in (and on a reload of a signed-in page) in one request (POST
 * /subrequests): the user with its handler, analytics and packet confirmations included; the seasons; the newest
 * position report; and, once the user's answer gives its handler id (`waitFor` and a replacement token), the
 * current season's packages, the unpaid invoices and the transfer agreements awaiting its countersignature. Other
 * seasons' packages are read when a page asks for them: their size grows with the seasons, the dashboard's must not.
 * Each is the very query the page would make, and each answer seeds that page's query key, so the dashboard makes no
 * request of its own.
 */

/** The key of "the start-up reads were made for this user": set once they are, so a page does not make them again. */
type User = ApiEntity<'user--user'>;
type Handler = ApiEntity<'node--handler'>;

export const startupReadsKey = (username: string) => ['startup-reads', username] as const;

/** The start-up reads as one query (useStartupReads): made once per user, whatever mounts the dashboard again. */
export function startupReadsQuery(queryClient: QueryClient, username: string) {
  return {
    queryKey: startupReadsKey(username),
    queryFn: async () => {
      await loadStartupReads(queryClient, username);
      return true;
    },
    staleTime: Infinity,
    retry: false,
  } as const;
}

/**
 * The roles /oauth/debug gives a user: `authenticated`, and `staff` or else `handler` (as the server's token check).
 */
export function rolesOf(user: User): string[] {
  return ['authenticated', user.field_role === 'staff' ? 'staff' : 'handler'];
}

/** The user's handler company, read in full (null for staff, who have none). */
export function handlerOf(user: User): Handler | null {
  const handler = one(user, 'field_user_handler_company');
  // A handler resolved from `included` carries its attributes; a bare identifier means it was not readable.
  return handler && 'title' in handler ? handler : null;
}

/** A read's document when it succeeded and is complete (no further page), else null: the page then reads it itself. */
function completeDoc(answer: BatchAnswer | undefined): JsonApiDocument | null {
  if (!answer || answer.status !== 200 || !answer.doc || nextLink(answer.doc)) return null;
  return answer.doc;
}

function listOf<E extends Entity = Entity>(doc: JsonApiDocument): E[] {
  const data = deserialize<E>(doc);
  return Array.isArray(data) ? data : [];
}

/** Seeds what the user read gives: the user record and its handler (with analytics and confirmations). */
export function seedUser(queryClient: QueryClient, user: User, handler: Handler | null): void {
  queryClient.setQueryData(queryKeys.me, user);
  if (handler) queryClient.setQueryData(queryKeys.handler(handler.id), handler);
}

/**
 * The current season's packages under that season's own key (only its own: the flag is the seasons' to keep single).
 */
function seedCurrentPackages(
  queryClient: QueryClient,
  handlerId: string,
  current: Season,
  packages: FormsPackage[],
): void {
  queryClient.setQueryData(
    seasonPackagesKey(handlerId, current.id),
    packages.filter((p) => seasonIdOf(p) === current.id),
  );
}

/** The current season's confirmation, from the handler's own list (the first one made, as the page's query sorts). */
function seedConfirmation(queryClient: QueryClient, handler: Handler, current: Season | null): void {
  if (!current) return;
  const found =
    many(handler, 'field_handler_packet_confirms').find((c) => one(c, 'field_season')?.id === current.id) ?? null;
  queryClient.setQueryData(confirmationKey(handler.id, current.id), found);
}

/** The login sequence's own reads (spec section 4) fail the sign-in with their status; the dashboard's do not. */
function failed(answer: BatchAnswer | undefined): ApiError | null {
  const status = answer?.status ?? 0;
  return status === 200 ? null : new ApiError(status, [{ detail: `message: ${status}` }]);
}

/** The user of the batch's answer, or the error of the sign-in (404 when no user has that name). */
function userOf(answer: BatchAnswer | undefined): User {
  const error = failed(answer);
  if (error) throw error;
  const user = answer?.doc ? listOf<User>(answer.doc)[0] : undefined;
  if (!user) throw new ApiError(404, [{ detail: 'message: 404' }]);
  return user;
}

export interface StartupUser {
  user: User;
  roles: string[];
  handler: Handler | null;
}

/**
 * The batch, and every key it seeds. Seasons and, for a handler user, packages are the login sequence's own reads:
 * their failure is the sign-in's (thrown with its status). Invoices and the report are the dashboard's: a failed one
 * is left for its card to read and show. A staff user has no handler: the reads that wait for it answer 424, unused.
 */
export async function loadStartupReads(
  queryClient: QueryClient,
  username: string,
  transport?: AuthTransport,
): Promise<StartupUser> {
  const answers = await batchRead(startupReads(username), transport);
  const user = userOf(answers.get('user'));
  const roles = rolesOf(user);
  const handler = roles.includes('staff') ? null : handlerOf(user);
  const seasonsError = failed(answers.get('seasons'));
  if (seasonsError) throw seasonsError;
  const packagesError = handler ? failed(answers.get('packages')) : null;
  if (packagesError) throw packagesError;
  seedUser(queryClient, user, handler);
  seedPortalData(queryClient, handler, answers);
  return { user, roles, handler };
}

/**
 * Seeds the seasons and, for a handler, its current packages, unpaid invoices, the agreements awaiting its
 * countersignature, the newest report and confirmation.
 */
function seedPortalData(queryClient: QueryClient, handler: Handler | null, answers: Map<string, BatchAnswer>): void {
  const seasonsDoc = completeDoc(answers.get('seasons'));
  const seasons = seasonsDoc ? listOf<Season>(seasonsDoc) : null;
  if (seasons) {
    queryClient.setQueryData(queryKeys.seasons, seasons);
    sessionStore.setCopyWhenIdle(STORAGE_KEYS.seasons, seasons);
  }
  if (!handler) return;

  const current = seasons ? currentSeasonOf(seasons) : null;
  const packagesDoc = completeDoc(answers.get('packages'));
  if (packagesDoc && current) seedCurrentPackages(queryClient, handler.id, current, listOf<FormsPackage>(packagesDoc));
  const invoicesDoc = completeDoc(answers.get('invoices'));
  if (invoicesDoc) queryClient.setQueryData(openInvoicesKey(handler.id), listOf<Invoice>(invoicesDoc));
  const awaitingDoc = completeDoc(answers.get('awaiting'));
  if (awaitingDoc)
    queryClient.setQueryData(
      awaitingCountersignatureKey(handler.id),
      listOf<ApiEntity<'node--apc_form_4'>>(awaitingDoc),
    );
  const reportAnswer = answers.get('report');
  if (reportAnswer?.status === 200)
    queryClient.setQueryData(newestReportKey, firstOf<ApiEntity<'node--monthly_position_report'>>(reportAnswer.doc));
  seedConfirmation(queryClient, handler, current);
}

import type { QueryClient } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { ApiError } from '../../../lib/http/errors';
import { passwordGrant, tokenDebug } from '../../../lib/oauth/oauth-client';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { endSession, storeSignInToken } from '../../../lib/session/session';
import { sessionStore } from '../../../lib/session/session-store';
import type { TokenResponse } from '../../../lib/session/token-rules';
import { queryKeys } from '../../../lib/query-keys';

/** Spec section 8: non-success responses of the login sequence's reads give 'message: {status}'. */
function asMessage(error: unknown): never {
  if (error instanceof ApiError) throw new ApiError(error.status, [{ detail: `message: ${error.status}` }], error.retryAfterSeconds);
  throw error;
}

export function userByNameParams(username: string) {
  return new DrupalJsonApiParams().addFilter('name', username);
}

export function handlerParams() {
  return new DrupalJsonApiParams().addInclude(['field_handler_analytics', 'field_handler_packet_confirms']);
}

export function seasonsParams() {
  return new DrupalJsonApiParams().addSort('field_season_start_date', 'DESC');
}

/** All seasons' packages of one handler in one request, newest reporting period first. */
export function formsPackagesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(['field_reporting_period', 'field_form_1', 'field_form_2', 'field_form_3'])
    .addPageLimit(500);
}

export function industryAnalyticsParams() {
  return new DrupalJsonApiParams().addInclude(['field_industry_analytics_xlsx']);
}

export interface LoginResult {
  username: string;
  isStaff: boolean;
  firstName: string | null;
  handler: Entity | null;
}

/**
 * The login sequence (spec section 4), after a token was obtained: store it, read who we are (roles and the user
 * record), then in parallel the handler, the seasons, the forms packages of all seasons and the industry
 * analytics. Staff have no handler: the handler calls are skipped. Results seed the query cache and the spec's
 * local-storage copies. Any failure ends the half-made session and is thrown.
 */
export async function completeSignIn(token: TokenResponse, remember: boolean, queryClient: QueryClient, knownUsername?: string): Promise<LoginResult> {
  storeSignInToken(token, remember);
  try {
    const debug = await tokenDebug(token.access_token).catch(asMessage);
    const username = knownUsername ?? debug.name;
    const isStaff = Array.isArray(debug.roles) && debug.roles.includes('staff');

    const [users, seasons, analytics] = await Promise.all([
      jsonApi.getAll('/jsonapi/user/user', userByNameParams(username)).catch(asMessage),
      jsonApi.getAll('/jsonapi/node/season', seasonsParams()).catch(asMessage),
      jsonApi.getAll('/jsonapi/node/industry_analytics', industryAnalyticsParams()).catch(asMessage),
    ]);
    const user = users[0];
    if (!user) throw new ApiError(404, [{ detail: 'message: 404' }]);
    const handlerRef = user.field_user_handler_company as { id?: string } | null | undefined;
    const handlerId = !isStaff && handlerRef?.id ? handlerRef.id : null;

    let handler: Entity | null = null;
    let packages: Entity[] = [];
    if (handlerId) {
      [handler, packages] = await Promise.all([
        jsonApi.getOne(`/jsonapi/node/handler/${encodeURIComponent(handlerId)}`, handlerParams()).catch(asMessage),
        jsonApi.getAll('/jsonapi/node/reporting_forms_package', formsPackagesParams(handlerId)).catch(asMessage),
      ]);
    }

    const firstName = typeof user.field_first_name === 'string' ? user.field_first_name : null;
    sessionStore.setProfile({
      username,
      userUid: user.id,
      userFirstName: firstName,
      handlerUid: handler?.id ?? null,
      handlerName: typeof handler?.title === 'string' ? handler.title : null,
      handlerNumber: handler?.field_handler_number != null ? String(handler.field_handler_number) : null,
      handlerStatus: typeof handler?.field_handler_status === 'string' ? handler.field_handler_status : null,
      roles: Array.isArray(debug.roles) ? debug.roles : [],
    });
    // Cached copies (spec section 4); optional, so a full storage only skips them.
    sessionStore.setItem(STORAGE_KEYS.handlerProfile, handler);
    sessionStore.setItem(STORAGE_KEYS.seasons, seasons);
    sessionStore.setItem(STORAGE_KEYS.industryAnalytics, analytics);
    if (handlerId) sessionStore.setItem(STORAGE_KEYS.formsPackages, packages);

    queryClient.setQueryData(queryKeys.me, user);
    queryClient.setQueryData(queryKeys.seasons, seasons);
    queryClient.setQueryData(queryKeys.industryAnalytics, analytics);
    if (handlerId && handler) {
      queryClient.setQueryData(queryKeys.handler(handlerId), handler);
      queryClient.setQueryData(queryKeys.formsPackages(handlerId), packages);
    }
    return { username, isStaff, firstName, handler };
  } catch (error) {
    endSession('refresh-failed');
    throw error;
  }
}

/**
 * Password sign-in: POST /oauth/token (with the staff second factor when given), then the login sequence. When the
 * sign-in finished an authenticator set-up, the recovery codes are shown first: `showRecoveryCodes` resolves once
 * the user has seen them.
 */
export async function signInWithPassword(
  username: string, password: string, remember: boolean, queryClient: QueryClient,
  factor: Record<string, string> = {}, showRecoveryCodes?: (codes: string[]) => Promise<void>,
): Promise<LoginResult> {
  const { recovery_codes: codes, ...token } = await passwordGrant(username, password, factor);
  if (codes?.length && showRecoveryCodes) await showRecoveryCodes(codes);
  return completeSignIn(token, remember, queryClient, username);
}

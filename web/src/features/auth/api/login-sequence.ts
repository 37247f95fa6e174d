import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/http/errors';
import { passwordGrant, tokenDebug } from '../../../lib/oauth/oauth-client';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { endSession, storeSignInToken } from '../../../lib/session/session';
import { sessionStore } from '../../../lib/session/session-store';
import type { TokenResponse } from '../../../lib/session/token-rules';
import type { ApiEntity } from '../../../lib/portal/entities';
import { loadStartupReads, startupReadsKey } from '../../../lib/portal/startup-reads';

/** Spec section 8: non-success responses of the login sequence's reads give 'message: {status}'. */
function asMessage(error: unknown): never {
  if (error instanceof ApiError)
    throw new ApiError(error.status, [{ detail: `message: ${error.status}` }], error.retryAfterSeconds);
  throw error;
}

export interface LoginResult {
  username: string;
  isStaff: boolean;
  firstName: string | null;
  handler: ApiEntity<'node--handler'> | null;
}

/**
 * The login sequence (spec section 4), after a token was obtained, in one request whatever the number of seasons:
 * a batch of the user by name with its handler (analytics and packet confirmations included), the seasons, the
 * newest position report and, with the handler id from the user's answer, the current season's packages and the
 * unpaid invoices (startup-reads.ts). The roles come from the user's own record; /oauth/debug is asked only when the
 * name is not known yet (single sign-on). Results seed the query cache and the spec's local-storage copies. Any
 * failure ends the half-made session and is thrown ('message: {status}').
 */
export async function completeSignIn(
  token: TokenResponse,
  remember: boolean,
  queryClient: QueryClient,
  knownUsername?: string,
): Promise<LoginResult> {
  storeSignInToken(token, remember);
  try {
    const username = knownUsername ?? (await tokenDebug(token.access_token).catch(asMessage)).name;
    const { user, roles, handler } = await loadStartupReads(queryClient, username).catch(asMessage);
    const firstName = typeof user.field_first_name === 'string' ? user.field_first_name : null;
    sessionStore.setProfile({
      username,
      userUid: user.id,
      userFirstName: firstName,
      handlerUid: handler?.id ?? null,
      handlerName: typeof handler?.title === 'string' ? handler.title : null,
      handlerNumber: handler?.field_handler_number != null ? String(handler.field_handler_number) : null,
      handlerStatus: typeof handler?.field_handler_status === 'string' ? handler.field_handler_status : null,
      roles,
    });
    // Cached copy (spec section 4); optional, so a full storage only skips it.
    sessionStore.setCopyWhenIdle(STORAGE_KEYS.handlerProfile, handler);
    queryClient.setQueryData(startupReadsKey(username), true);
    return { username, isStaff: roles.includes('staff'), firstName, handler };
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
  username: string,
  password: string,
  remember: boolean,
  queryClient: QueryClient,
  factor: Record<string, string> = {},
  showRecoveryCodes?: (codes: string[]) => Promise<void>,
): Promise<LoginResult> {
  const { recovery_codes: codes, ...token } = await passwordGrant(username, password, factor);
  if (codes?.length && showRecoveryCodes) await showRecoveryCodes(codes);
  return completeSignIn(token, remember, queryClient, username);
}

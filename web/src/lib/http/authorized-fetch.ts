import { endSession, getAccessToken, refreshSession } from '../session/session';
import { bearerHeader } from './bearer';
import { toApiError } from './errors';

/** What a call with the bearer token needs; tests pass their own. */
export interface AuthTransport {
  fetch: typeof fetch;
  getAccessToken: () => Promise<string | null>;
  refresh: () => Promise<{ access_token: string }>;
  onUnauthorized: () => void;
}

export const defaultAuthTransport: AuthTransport = {
  fetch: (...args) => fetch(...args),
  getAccessToken,
  refresh: refreshSession,
  onUnauthorized: () => endSession('refresh-failed'),
};

/**
 * A fetch with the bearer token. On 401 the token is refreshed once and the call retried once; a second 401 (or a
 * failed refresh) ends the session. Any failed answer is thrown as ApiError; a good one is returned unread.
 */
export async function authorizedFetch(
  url: string,
  init: RequestInit = {},
  transport: AuthTransport = defaultAuthTransport,
): Promise<Response> {
  const send = (token: string | null) =>
    transport.fetch(url, {
      ...init,
      headers: { ...init.headers, ...bearerHeader(token) },
    });
  let response = await send(await transport.getAccessToken());
  if (response.status === 401) {
    const refreshed = await freshToken(transport);
    if (refreshed) response = await send(refreshed);
    if (!refreshed || response.status === 401) {
      const error = await toApiError(response);
      transport.onUnauthorized();
      throw error;
    }
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** A new access token, or null when the refresh fails (however it fails). */
async function freshToken(transport: AuthTransport): Promise<string | null> {
  try {
    return (await transport.refresh()).access_token;
  } catch {
    return null;
  }
}

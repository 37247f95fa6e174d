import { bearerHeader } from '../http/bearer';
import { toApiError } from '../http/errors';
import type { TokenResponse } from '../session/token-rules';

/** The web app's public OAuth client (no secret). */
export const OAUTH_CLIENT_ID = 'portal-web';

function form(params: Record<string, string>): URLSearchParams {
  return new URLSearchParams(params);
}

async function tokenCall(params: Record<string, string>): Promise<TokenResponse> {
  const response = await fetch('/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: form(params),
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as TokenResponse;
}

/** A token response that may carry the recovery codes of a just-finished authenticator set-up (staff only). */
export type PasswordTokenResponse = TokenResponse & { recovery_codes?: string[] };

/**
 * POST /oauth/token grant_type=password. 400 invalid_grant means bad credentials; 429 carries Retry-After. Staff
 * also send a second factor (`totp`, `recovery_code`, or `enrollment_token` with `totp`); without it the answer is
 * 400 mfa_required or mfa_enrollment_required (with an enrollment_token).
 */
export function passwordGrant(
  username: string,
  password: string,
  factor: Record<string, string> = {},
): Promise<PasswordTokenResponse> {
  return tokenCall({ ...factor, grant_type: 'password', client_id: OAUTH_CLIENT_ID, username, password });
}

export interface EnrollmentKey {
  secret: string;
  otpauth_uri: string;
  issuer: string;
  account: string;
}

/** POST /oauth/mfa/enrollment: the key of an open authenticator set-up. */
export async function enrollmentKey(enrollmentToken: string): Promise<EnrollmentKey> {
  const response = await fetch('/oauth/mfa/enrollment', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: form({ enrollment_token: enrollmentToken }),
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as EnrollmentKey;
}

/** POST /oauth/token grant_type=refresh_token. The server rotates the refresh token. */
export function refreshGrant(refreshToken: string): Promise<TokenResponse> {
  return tokenCall({ grant_type: 'refresh_token', client_id: OAUTH_CLIENT_ID, refresh_token: refreshToken });
}

export interface TokenDebug {
  id: string;
  name: string;
  roles: string[];
  expires?: number | string;
}

/** GET /oauth/debug?_format=json: the signed-in user's id, name and roles. */
export async function tokenDebug(accessToken: string): Promise<TokenDebug> {
  const response = await fetch('/oauth/debug?_format=json', {
    headers: { Accept: 'application/json', ...bearerHeader(accessToken) },
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as TokenDebug;
}

/** POST /oauth/revoke (RFC 7009 form): revokes the refresh token's family. Failures are ignored by the caller. */
export async function revoke(accessToken: string, refreshToken: string | null): Promise<void> {
  const params: Record<string, string> = { client_id: OAUTH_CLIENT_ID };
  if (refreshToken) {
    params.token = refreshToken;
    params.token_type_hint = 'refresh_token';
  } else {
    params.token = accessToken;
    params.token_type_hint = 'access_token';
  }
  await fetch('/oauth/revoke', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
      ...bearerHeader(accessToken),
    },
    body: form(params),
  });
}

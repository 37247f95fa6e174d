/**
 * The OAuth 2 error shape (RFC 6749 §5.2): `{error, error_description}`. The /oauth endpoints answer with it instead
 * of JSON:API errors because OAuth clients (and the web app's login form) expect it.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_token'
  | 'too_many_requests'
  | 'server_error'
  | 'invalid_scope'
  // Extensions for the staff second factor (docs/SECURITY.md): the password was right, a code is still needed.
  | 'mfa_required'
  | 'mfa_enrollment_required'
  // The password was right but the sign-up request still waits for the council (told only after the password check).
  | 'account_pending';

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
    /** Extra members of the error body (RFC 6749 §5.2 allows them), e.g. the enrolment token. */
    readonly extra: Record<string, string> = {},
  ) {
    super(description);
  }

  body(): { error: OAuthErrorCode; error_description: string } {
    return { ...this.extra, error: this.code, error_description: this.description };
  }
}

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);
export const accountPending = () =>
  new OAuthError(
    400,
    'account_pending',
    'The account request is waiting for approval by council staff; an e-mail follows their decision.',
  );
export const invalidClient = (headers: Record<string, string> = {}) =>
  new OAuthError(401, 'invalid_client', 'Client authentication failed.', headers);

/**
 * The Authorization header of a call with an access token. Only lib/http builds it: `authorizedFetch` for the
 * signed-in calls, and the OAuth client for the two calls that name a token of their own (the sign-in's
 * /oauth/debug before the session is kept, and the revocation at sign-out, which must not refresh).
 */
export const bearerHeader = (token: string | null): Record<string, string> =>
  token ? { Authorization: `Bearer ${token}` } : {};

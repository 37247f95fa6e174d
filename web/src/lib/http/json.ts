import { authorizedFetch, defaultAuthTransport, type AuthTransport } from './authorized-fetch';
import { ApiError, toApiError } from './errors';

/**
 * The one client of the portal's plain JSON endpoints (`/api/...`: council console, account, analytics, sign-up,
 * password reset, SSO). `api` calls with the bearer token through `authorizedFetch` (a 401 refreshes the token once
 * and retries once); `publicApi` calls without it, for the pages before sign-in, where a 401 is an answer to show and
 * not a session to end. Both throw a failed answer as ApiError and read an empty answer as null.
 */

/** Query parameters; undefined, null and '' are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined | null>;

export interface JsonRequest {
  params?: QueryParams;
  signal?: AbortSignal;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sends a request and returns a good answer unread; a failed one is thrown as ApiError. */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

/** `path` with the query string of `params`. */
export function withQuery(path: string, params: QueryParams = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

/** A client of the endpoints under `base` (e.g. '/api/council'): each call names its path below it. */
export function createJsonClient(send: Send, base = '') {
  async function call<T>(method: Method, path: string, body: unknown, req: JsonRequest = {}): Promise<T> {
    const response = await send(withQuery(base + path, req.params), {
      method,
      signal: req.signal,
      headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
  }
  return {
    get: <T>(path: string, req?: JsonRequest) => call<T>('GET', path, undefined, req),
    post: <T>(path: string, body?: unknown, req?: JsonRequest) => call<T>('POST', path, body, req),
    put: <T>(path: string, body?: unknown, req?: JsonRequest) => call<T>('PUT', path, body, req),
    patch: <T>(path: string, body?: unknown, req?: JsonRequest) => call<T>('PATCH', path, body, req),
    delete: <T = null>(path: string, req?: JsonRequest) => call<T>('DELETE', path, undefined, req),
  };
}

export type JsonClient = ReturnType<typeof createJsonClient>;

/** The JSON client with the bearer token (tests pass their own transport). */
export const createAuthorizedJsonClient = (base = '', transport: AuthTransport = defaultAuthTransport) =>
  createJsonClient((url, init) => authorizedFetch(url, init, transport), base);

/** Sends without a token: a failed answer is thrown as ApiError, a 401 included. */
export const createPublicJsonClient = (fetchImpl: typeof fetch = (...args) => fetch(...args)) =>
  createJsonClient(async (url, init) => {
    const response = await fetchImpl(url, init);
    if (!response.ok) throw await toApiError(response);
    return response;
  });

/** Calls with the signed-in user's bearer token. */
export const api = createAuthorizedJsonClient();

/** The council's staff endpoints (/api/council/..., docs/COUNCIL-API.md), with the bearer token. */
export const councilApi = createAuthorizedJsonClient('/api/council');

/** Calls without a token: sign-up, password reset, unlock, e-mail confirmation, SSO, demo credentials. */
export const publicApi = createPublicJsonClient();

export { ApiError };

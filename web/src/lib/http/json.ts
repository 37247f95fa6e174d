import { ApiError, toApiError } from './errors';

/** Plain JSON calls to the portal's own `/api/...` endpoints (sign-up, password reset, SSO, demo credentials). */
export async function postJson<T = unknown>(path: string, body: unknown, init: RequestInit = {}): Promise<T | null> {
  const response = await fetch(path, {
    ...init,
    method: 'POST',
    headers: {
      Accept: 'application/json, application/vnd.api+json',
      'Content-Type': 'application/json',
      ...init.headers,
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await toApiError(response);
  const text = await response.text();
  return text ? (JSON.parse(text) as T) : null;
}

export async function getJson<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { ...init, headers: { Accept: 'application/json', ...init.headers } });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as T;
}

export { ApiError };

import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** Signs in through the real token endpoint and returns the access token. */
export async function signIn(app: FastifyInstance, username: string, password: string): Promise<string> {
  const response = await app.inject({
    method: 'POST', url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', client_id: 'portal-web', username, password }).toString(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().access_token as string;
}

export interface ApiResponse {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, unknown>;
}

/** A JSON:API request as the web app makes it. */
export async function api(app: FastifyInstance, token: string | null, method: string, url: string, body?: unknown): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: 'application/vnd.api+json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/vnd.api+json';
  const response = await app.inject({ method: method as 'GET', url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
  let parsed: unknown = null;
  try { parsed = response.body ? JSON.parse(response.body) : null; } catch { parsed = response.body; }
  return { status: response.statusCode, body: parsed, headers: response.headers };
}

/** The ids of a collection document's data. */
export const ids = (body: { data: Array<{ id: string }> }) => body.data.map((d) => d.id);

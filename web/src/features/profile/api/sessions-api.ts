import { toApiError } from '../../../lib/http/errors';
import { getAccessToken } from '../../../lib/session/session';

/** One of the signed-in user's sessions (a sign-in and its refreshes), as GET /api/account/sessions gives it. */
export interface ActiveSession {
  id: string;
  created: string;
  last_used: string;
  expires_at: string;
  client: string;
  user_agent: string | null;
  address: string | null;
  current: boolean;
}

async function authorized(url: string, init: RequestInit = {}): Promise<Response> {
  const token = await getAccessToken();
  const response = await fetch(url, { ...init, headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  if (!response.ok) throw await toApiError(response);
  return response;
}

export async function fetchSessions(signal?: AbortSignal): Promise<ActiveSession[]> {
  const body = (await (await authorized('/api/account/sessions', { signal })).json()) as { data: ActiveSession[] };
  return body.data;
}

/** DELETE /api/account/sessions/:id: that browser is signed out at its next request. */
export async function endSession(id: string): Promise<void> {
  await authorized(`/api/account/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** "Firefox on Windows" from a user agent, or null: enough to recognise one's own devices. */
export function describeAgent(agent: string | null): { browser: string; os: string } | null {
  if (!agent) return null;
  const browser = /Edg\//.test(agent) ? 'Edge' : /OPR\//.test(agent) ? 'Opera' : /Firefox\//.test(agent) ? 'Firefox'
    : /Chrom(e|ium)\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : null;
  const os = /iPhone|iPad/.test(agent) ? 'iOS' : /Android/.test(agent) ? 'Android' : /Windows/.test(agent) ? 'Windows'
    : /Mac OS X|Macintosh/.test(agent) ? 'macOS' : /CrOS/.test(agent) ? 'ChromeOS' : /Linux/.test(agent) ? 'Linux' : null;
  if (!browser && !os) return null;
  return { browser: browser ?? '?', os: os ?? '?' };
}

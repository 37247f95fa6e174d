import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/http/json';

export type { ActiveSession } from '@pecan/contract/api/council';
import type { ActiveSession } from '@pecan/contract/api/council';

/** GET /api/account/sessions: the user's sessions, this one marked `current`. */
export async function fetchSessions(signal?: AbortSignal): Promise<ActiveSession[]> {
  return (await api.get<{ data: ActiveSession[] }>('/api/account/sessions', { signal })).data;
}

export const sessionsQuery = () =>
  queryOptions({ queryKey: ['account', 'sessions'] as const, queryFn: ({ signal }) => fetchSessions(signal) });

/** DELETE /api/account/sessions/:id: that browser is signed out at its next request. */
export async function endSession(id: string): Promise<void> {
  await api.delete(`/api/account/sessions/${encodeURIComponent(id)}`);
}

/** "Firefox on Windows" from a user agent, or null: enough to recognise one's own devices. */
export function describeAgent(agent: string | null): { browser: string; os: string } | null {
  if (!agent) return null;
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /OPR\//.test(agent)
      ? 'Opera'
      : /Firefox\//.test(agent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(agent)
          ? 'Chrome'
          : /Safari\//.test(agent)
            ? 'Safari'
            : null;
  const os = /iPhone|iPad/.test(agent)
    ? 'iOS'
    : /Android/.test(agent)
      ? 'Android'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(agent)
          ? 'macOS'
          : /CrOS/.test(agent)
            ? 'ChromeOS'
            : /Linux/.test(agent)
              ? 'Linux'
              : null;
  if (!browser && !os) return null;
  return { browser: browser ?? '?', os: os ?? '?' };
}

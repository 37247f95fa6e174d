import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/json';

export interface DemoCredentials {
  /** `totpSecret`: the authenticator key of the demo staff user, who signs in with a second factor. */
  users: { username: string; description: string; totpSecret?: string }[];
  password: string;
}

/** GET /api/demo-credentials: 200 when the demo data set is loaded, 404 otherwise (then nothing is shown). */
export async function getDemoCredentials(): Promise<DemoCredentials | null> {
  try {
    const body = await publicApi.get<DemoCredentials | null>('/api/demo-credentials');
    if (!body || !Array.isArray(body.users) || typeof body.password !== 'string') return null;
    return body;
  } catch {
    return null;
  }
}

export const demoCredentialsQuery = () =>
  queryOptions({ queryKey: ['demo-credentials'], queryFn: getDemoCredentials, staleTime: Infinity, retry: false });

export function useDemoCredentials() {
  return useQuery(demoCredentialsQuery());
}

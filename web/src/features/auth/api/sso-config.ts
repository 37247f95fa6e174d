import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/json';

/**
 * What the server publishes about single sign-on at GET /api/sso/config. Kept apart from sso.ts (PKCE, the
 * redirect and the code exchange) so the sign-in page loads only this and fetches the rest when SSO is used.
 */
export interface SsoConfig {
  enabled: boolean;
  label?: string;
  authorizeUrl?: string;
  clientId?: string;
  scope?: string;
  audience?: string;
  redirectUri?: string;
}

export async function getSsoConfig(): Promise<SsoConfig | null> {
  try {
    const config = await publicApi.get<SsoConfig | null>('/api/sso/config');
    return config?.enabled && config.authorizeUrl && config.clientId ? config : null;
  } catch {
    return null;
  }
}

export const ssoConfigQuery = () =>
  queryOptions({ queryKey: ['sso-config'], queryFn: getSsoConfig, staleTime: Infinity, retry: false });

export function useSsoConfig() {
  return useQuery(ssoConfigQuery());
}

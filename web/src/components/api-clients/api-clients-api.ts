import type { ApiClient } from '@pecan/contract/api/council';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/http/json';

export type { ApiClient };

/** Whose clients: the signed-in admin's own handler (My Profile), or any handler's (council console, staff). */
export type ClientsOwner = { kind: 'account' } | { kind: 'council'; handlerId: string };

export interface NewSecret {
  data: ApiClient;
  client_secret: string;
}

const listUrl = (o: ClientsOwner) =>
  o.kind === 'account'
    ? '/api/account/api-clients'
    : `/api/council/handlers/${encodeURIComponent(o.handlerId)}/api-clients`;
const itemUrl = (o: ClientsOwner, id: string, what: 'rotate' | 'revoke') =>
  `${o.kind === 'account' ? '/api/account' : '/api/council'}/api-clients/${encodeURIComponent(id)}/${what}`;

/** The clients, newest first; `admin` says whether this user may manage them (My Profile shows the card only then). */
export const fetchClients = (o: ClientsOwner, signal?: AbortSignal) =>
  api.get<{ admin?: boolean; data: ApiClient[] }>(listUrl(o), { signal });
export const createClient = (o: ClientsOwner, name: string, scope: ApiClient['scope']) =>
  api.post<NewSecret>(listUrl(o), { name, scope });
export const rotateClient = (o: ClientsOwner, id: string) => api.post<NewSecret>(itemUrl(o, id, 'rotate'));
export const revokeClient = (o: ClientsOwner, id: string) => api.post<{ data: ApiClient }>(itemUrl(o, id, 'revoke'));

export const apiClientKeys = {
  /** One owner's clients: the signed-in admin's own, or one handler's. */
  list: (o: ClientsOwner) => ['api-clients', o.kind === 'account' ? 'account' : o.handlerId] as const,
};

export const apiClientsQuery = (o: ClientsOwner) =>
  queryOptions({ queryKey: apiClientKeys.list(o), queryFn: ({ signal }) => fetchClients(o, signal) });

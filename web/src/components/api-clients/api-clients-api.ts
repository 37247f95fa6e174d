import type { ApiClient } from '@pecan/contract/api/council';
import { authorizedFetch } from '../../lib/http/authorized-fetch';

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

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await authorizedFetch(url, {
    method,
    signal,
    headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as T;
}

/** The clients, newest first; `admin` says whether this user may manage them (My Profile shows the card only then). */
export const fetchClients = (o: ClientsOwner, signal?: AbortSignal) =>
  call<{ admin?: boolean; data: ApiClient[] }>('GET', listUrl(o), undefined, signal);
export const createClient = (o: ClientsOwner, name: string, scope: ApiClient['scope']) =>
  call<NewSecret>('POST', listUrl(o), { name, scope });
export const rotateClient = (o: ClientsOwner, id: string) => call<NewSecret>('POST', itemUrl(o, id, 'rotate'));
export const revokeClient = (o: ClientsOwner, id: string) =>
  call<{ data: ApiClient }>('POST', itemUrl(o, id, 'revoke'));

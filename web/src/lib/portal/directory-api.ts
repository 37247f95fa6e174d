import { buildUrl, jsonApi, type JsonApiClient } from '../jsonapi/client';
import { deserialize, nextLink } from '../jsonapi/deserialize';
import { queryKeys } from '../query-keys';
import type { ApiEntity } from './entities';
import { contactsParams, handlerDirectoryParams, handlerPickerParams } from './directory-params';

/** Which handlers a list reads: the directory's cards, or every active handler for a picker (name and number). */
export type HandlerScope = 'directory' | 'picker';

export const directoryKeys = {
  /** A handler's contacts (the directory's people), under the root a profile change refreshes. */
  contacts: (handlerId: string) => [...queryKeys.contacts, handlerId] as const,
  /** Pages of the handler directory (or the picker's list) for a search text ('' for none). */
  handlerPages: (search: string, scope: HandlerScope = 'directory') =>
    scope === 'directory'
      ? (['handler-directory', 'pages', search] as const)
      : (['handler-directory', 'picker', search] as const),
};

export type DirectoryHandler = ApiEntity<'node--handler'>;
export type DirectoryContact = ApiEntity<'user--user'>;

/** One page of the directory and where the next one is (null on the last). */
export interface HandlerPage {
  rows: DirectoryHandler[];
  next: string | null;
}

/** Reads a page: the first for `search` when `next` is null, else the page the server's links.next names. */
export async function fetchHandlerPage(
  search: string,
  next: string | null,
  signal?: AbortSignal,
  client: JsonApiClient = jsonApi,
  scope: HandlerScope = 'directory',
): Promise<HandlerPage> {
  const params = scope === 'directory' ? handlerDirectoryParams(search) : handlerPickerParams(search);
  let path = buildUrl('/jsonapi/node/handler', params);
  if (next) {
    // The server writes an absolute link; the request goes to the same origin as every other.
    const u = new URL(next, 'http://portal.invalid');
    path = u.pathname + u.search;
  }
  const doc = await client.request(path, { signal });
  const data = doc ? deserialize<DirectoryHandler>(doc) : [];
  return { rows: Array.isArray(data) ? data : [], next: doc ? nextLink(doc) : null };
}

export const fetchContacts = (handlerId: string, signal?: AbortSignal) =>
  jsonApi.getAll<DirectoryContact>('/jsonapi/user/user', contactsParams(handlerId), signal);

/** Case- and accent-insensitive match of a search text against some fields. */
export function matches(query: string, ...fields: unknown[]): boolean {
  const norm = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const q = norm(query.trim());
  if (!q) return true;
  return fields.some((f) => typeof f === 'string' && norm(f).includes(q));
}

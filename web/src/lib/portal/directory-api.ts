import { buildUrl, jsonApi, type JsonApiClient } from '../jsonapi/client';
import { deserialize, nextLink, type Entity } from '../jsonapi/deserialize';
import { contactsParams, handlerDirectoryParams } from './directory-params';

export const directoryKeys = {
  /** Pages of the handler directory for a search text ('' for none). */
  handlerPages: (search: string) => ['handler-directory', 'pages', search] as const,
};

/** One page of the directory and where the next one is (null on the last). */
export interface HandlerPage {
  rows: Entity[];
  next: string | null;
}

/** Reads a page: the first for `search` when `next` is null, else the page the server's links.next names. */
export async function fetchHandlerPage(
  search: string,
  next: string | null,
  signal?: AbortSignal,
  client: JsonApiClient = jsonApi,
): Promise<HandlerPage> {
  let path = buildUrl('/jsonapi/node/handler', handlerDirectoryParams(search));
  if (next) {
    // The server writes an absolute link; the request goes to the same origin as every other.
    const u = new URL(next, 'http://portal.invalid');
    path = u.pathname + u.search;
  }
  const doc = await client.request(path, { signal });
  const data = doc ? deserialize(doc) : [];
  return { rows: Array.isArray(data) ? data : [], next: doc ? nextLink(doc) : null };
}

export const fetchContacts = (handlerId: string, signal?: AbortSignal) =>
  jsonApi.getAll('/jsonapi/user/user', contactsParams(handlerId), signal);

/** Case- and accent-insensitive match of a search text against some fields. */
export function matches(query: string, ...fields: unknown[]): boolean {
  const norm = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const q = norm(query.trim());
  if (!q) return true;
  return fields.some((f) => typeof f === 'string' && norm(f).includes(q));
}

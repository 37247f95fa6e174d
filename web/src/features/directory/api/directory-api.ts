import { buildUrl, DrupalJsonApiParams, jsonApi, type JsonApiClient } from '../../../lib/jsonapi/client';
import { deserialize, nextLink, type Entity } from '../../../lib/jsonapi/deserialize';

/** Handlers per page of the directory: the contract's default page size. */
export const HANDLER_PAGE_SIZE = 50;

/** What the directory's search box looks in (on the server, case- and accent-insensitive). */
export const HANDLER_SEARCH_FIELDS = ['title', 'field_handler_number', 'field_address', 'field_email', 'field_phone', 'field_website'] as const;

export const directoryKeys = {
  /** Pages of the handler directory for a search text ('' for none). Not ['handler-directory']: form 4's picker has that. */
  handlerPages: (search: string) => ['handler-directory', 'pages', search] as const,
};

/**
 * The first page of the handler directory: handlers flagged for it, by title, 50 at a time; with a search text,
 * those where any of the searched fields contains it (an OR group of CONTAINS conditions). Later pages come from
 * the server's links.next.
 */
export function handlerDirectoryParams(search = ''): DrupalJsonApiParams {
  const params = new DrupalJsonApiParams().addFilter('field_show_in_handler_directory', '1');
  const text = search.trim();
  if (text) {
    params.addGroup('search', 'OR');
    for (const field of HANDLER_SEARCH_FIELDS) params.addFilter(field, text, 'CONTAINS', 'search');
  }
  return params.addSort('title', 'ASC').addPageLimit(HANDLER_PAGE_SIZE);
}

/** One page of the directory and where the next one is (null on the last). */
export interface HandlerPage {
  rows: Entity[];
  next: string | null;
}

/** Reads a page: the first for `search` when `next` is null, else the page the server's links.next names. */
export async function fetchHandlerPage(search: string, next: string | null, signal?: AbortSignal, client: JsonApiClient = jsonApi): Promise<HandlerPage> {
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
  jsonApi.getAll(
    '/jsonapi/user/user',
    new DrupalJsonApiParams().addFilter('field_user_handler_company.id', handlerId).addFilter('field_show_in_directory', '1').addSort('field_last_name', 'ASC').addPageLimit(500),
    signal,
  );

/** Case- and accent-insensitive match of a search text against some fields. */
export function matches(query: string, ...fields: unknown[]): boolean {
  const norm = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const q = norm(query.trim());
  if (!q) return true;
  return fields.some((f) => typeof f === 'string' && norm(f).includes(q));
}

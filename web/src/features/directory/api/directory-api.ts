import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';

export const fetchHandlers = (signal?: AbortSignal) =>
  jsonApi.getAll('/jsonapi/node/handler', new DrupalJsonApiParams().addFilter('field_show_in_handler_directory', '1').addSort('title', 'ASC').addPageLimit(500), signal);

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

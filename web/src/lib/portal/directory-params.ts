/**
 * The queries of the directories. Apart from directory-api.ts (the fetch client) so that the benchmark
 * (bench/run.ts) sends the very same requests.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/** Handlers per page of the directory: the contract's default page size. */
export const HANDLER_PAGE_SIZE = 50;

/** What the directory's search box looks in (on the server, case- and accent-insensitive). */
export const HANDLER_SEARCH_FIELDS = [
  'title',
  'field_handler_number',
  'field_address',
  'field_email',
  'field_phone',
  'field_website',
] as const;

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

/**
 * The receiving-handler picker's page: every active handler, in the directory or not, by title, 50 at a time, name
 * and number only (all a handler may read of one outside the directory). A search looks in the directory's fields:
 * the server matches contacts only where it shows them, so a directory handler is still found by its city.
 */
export function handlerPickerParams(search = ''): DrupalJsonApiParams {
  const params = new DrupalJsonApiParams()
    .addFilter('field_handler_status', 'active')
    .addFields('node--handler', ['title', 'field_handler_number']);
  const text = search.trim();
  if (text) {
    params.addGroup('search', 'OR');
    for (const field of HANDLER_SEARCH_FIELDS) params.addFilter(field, text, 'CONTAINS', 'search');
  }
  return params.addSort('title', 'ASC').addPageLimit(HANDLER_PAGE_SIZE);
}

/** A handler's contacts: its users shown in the directory, by last name. */
export function contactsParams(handlerId: string): DrupalJsonApiParams {
  return new DrupalJsonApiParams()
    .addFilter('field_user_handler_company.id', handlerId)
    .addFilter('field_show_in_directory', '1')
    .addSort('field_last_name', 'ASC')
    .addPageLimit(500);
}

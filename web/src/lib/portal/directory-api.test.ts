import { DrupalJsonApiParams as Library } from 'drupal-jsonapi-params';
import { describe, expect, it, vi } from 'vitest';
import { createJsonApiClient } from '../jsonapi/client';
import { fetchHandlerPage } from './directory-api';
import {
  HANDLER_PAGE_SIZE,
  HANDLER_SEARCH_FIELDS,
  handlerDirectoryParams,
  handlerPickerParams,
} from './directory-params';

const decoded = (search?: string) => decodeURIComponent(handlerDirectoryParams(search).getQueryString());

describe('handler directory query', () => {
  it('without a search: the flagged handlers by title, one page of 50', () => {
    expect(HANDLER_PAGE_SIZE).toBe(50);
    expect(decoded()).toBe('filter[field_show_in_handler_directory]=1&page[limit]=50&sort=title');
    expect(decoded('   ')).toBe(decoded());
  });

  it('with a search: an OR group of CONTAINS on name, number, address, e-mail, phone and website, sent trimmed', () => {
    const q = decoded('  Riverbend ');
    expect(q.startsWith('filter[field_show_in_handler_directory]=1&filter[search][group][conjunction]=OR&')).toBe(true);
    for (const f of HANDLER_SEARCH_FIELDS) {
      expect(q).toContain(
        `filter[${f}][condition][path]=${f}&filter[${f}][condition][value]=Riverbend&filter[${f}][condition][operator]=CONTAINS&filter[${f}][condition][memberOf]=search`,
      );
    }
    expect(q.endsWith('&page[limit]=50&sort=title')).toBe(true);
  });

  it('writes what drupal-jsonapi-params writes for the same calls', () => {
    const lib = new Library().addFilter('field_show_in_handler_directory', '1').addGroup('search', 'OR');
    for (const f of HANDLER_SEARCH_FIELDS) lib.addFilter(f, '101 & Côte', 'CONTAINS', 'search');
    lib.addSort('title', 'ASC').addPageLimit(50);
    expect(handlerDirectoryParams('101 & Côte').getQueryString()).toBe(lib.getQueryString());
  });
});

describe('handler picker query', () => {
  it('every active handler, in the directory or not, by name and number, with the same search', () => {
    const q = decodeURIComponent(handlerPickerParams(' mesa ').getQueryString());
    expect(q).toContain('filter[field_handler_status]=active');
    expect(q).not.toContain('field_show_in_handler_directory');
    expect(q).toContain('fields[node--handler]=title,field_handler_number');
    for (const f of HANDLER_SEARCH_FIELDS) expect(q).toContain(`filter[${f}][condition][value]=mesa`);
    expect(q).toContain('page[limit]=50');
    expect(q).toContain('sort=title');
  });
});

describe('handler directory pages', () => {
  const doc = (ids: string[], next?: string) => ({
    data: ids.map((id) => ({ type: 'node--handler', id, attributes: { title: `H ${id}` } })),
    links: next ? { next: { href: next } } : {},
  });
  const client = (fetchMock: ReturnType<typeof vi.fn>) =>
    createJsonApiClient({
      fetch: fetchMock as unknown as typeof fetch,
      getAccessToken: async () => 'tok',
      refresh: vi.fn(),
      onUnauthorized: vi.fn(),
    });
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/vnd.api+json' } });

  it("reads the first page, then the one links.next names (same origin, the server's query as is)", async () => {
    const next =
      'http://portal.example/jsonapi/node/handler?filter%5Bfield_show_in_handler_directory%5D=1&page%5Blimit%5D=50&page%5Boffset%5D=50&sort=title';
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(doc(['a', 'b'], next)))
      .mockResolvedValueOnce(json(doc(['c'])));
    const c = client(fetchMock);
    const first = await fetchHandlerPage('', null, undefined, c);
    expect(first.rows.map((r) => r.id)).toEqual(['a', 'b']);
    expect(first.next).toBe(next);
    const second = await fetchHandlerPage('', first.next, undefined, c);
    expect(second).toMatchObject({ rows: [{ id: 'c', title: 'H c' }], next: null });
    expect(decodeURIComponent(fetchMock.mock.calls[0][0] as string)).toBe(
      '/jsonapi/node/handler?filter[field_show_in_handler_directory]=1&page[limit]=50&sort=title',
    );
    expect(fetchMock.mock.calls[1][0]).toBe(
      '/jsonapi/node/handler?filter%5Bfield_show_in_handler_directory%5D=1&page%5Blimit%5D=50&page%5Boffset%5D=50&sort=title',
    );
  });

  it('sends the search with the first page', async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(json(doc([])));
    const page = await fetchHandlerPage('mesa', null, undefined, client(fetchMock));
    expect(page).toEqual({ rows: [], next: null });
    expect(decodeURIComponent(fetchMock.mock.calls[0][0] as string)).toContain('filter[title][condition][value]=mesa');
  });
});

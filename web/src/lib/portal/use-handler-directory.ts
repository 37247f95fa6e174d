import { keepPreviousData, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { readCachedCopy, writeCachedCopy, type CacheRef } from '../cache/cached-copy';
import { directoryKeys, fetchHandlerPage, type HandlerPage, type HandlerScope } from './directory-api';

/** The saved copy of the list's first page without a search (spec: lists are shown from a copy offline). */
const FIRST_PAGE_COPY: Record<HandlerScope, CacheRef> = {
  directory: { listKey: 'handler_directory' },
  picker: { listKey: 'handler_picker' },
};

/** How long the search box waits after the last key before asking the server. */
export const SEARCH_DELAY_MS = 300;

/** The saved first page; a copy saved before the directory was paged is the whole list, shown as one page. */
function readFirstPage(scope: HandlerScope): { page: HandlerPage; savedAt: number | null } | null {
  const copy = readCachedCopy<unknown>(FIRST_PAGE_COPY[scope]);
  if (!copy) return null;
  const data = copy.data as Partial<HandlerPage> | HandlerPage['rows'];
  if (Array.isArray(data)) return { page: { rows: data, next: null }, savedAt: copy.savedAt };
  if (data && Array.isArray(data.rows))
    return { page: { rows: data.rows, next: typeof data.next === 'string' ? data.next : null }, savedAt: copy.savedAt };
  return null;
}

/**
 * The text typed, and the text searched: the latter follows the former SEARCH_DELAY_MS after the last change, or at
 * once when the box is cleared or Enter is pressed (`searchNow`).
 */
export function useSearchText() {
  const [text, setText] = useState('');
  const [searched, setSearched] = useState('');
  useEffect(() => {
    const next = text.trim();
    if (next === searched) return undefined;
    if (next === '') {
      setSearched('');
      return undefined;
    }
    const timer = setTimeout(() => setSearched(next), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, searched]);
  const searchNow = useCallback((value: string) => {
    setText(value);
    setSearched(value.trim());
  }, []);
  return { text, setText, searched, searchNow };
}

/**
 * The handler directory (or, for a picker, every active handler), paged and searched on the server: the first 50 by
 * title, then each "Show more" appends the page the server's links.next names. The first page without a search starts
 * from its saved copy (shown at once, offline too) and replaces the copy when it is read again.
 */
export function useHandlerDirectory(search: string, scope: HandlerScope = 'directory') {
  const initial = useMemo(() => readFirstPage(scope), [scope]);
  const fromCopy = search === '' ? initial : null;
  const query = useInfiniteQuery<
    HandlerPage,
    Error,
    InfiniteData<HandlerPage, string | null>,
    readonly unknown[],
    string | null
  >({
    queryKey: directoryKeys.handlerPages(search, scope),
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchHandlerPage(search, pageParam, signal, undefined, scope);
      if (search === '' && pageParam === null) writeCachedCopy(FIRST_PAGE_COPY[scope], page);
      return page;
    },
    initialPageParam: null,
    getNextPageParam: (last) => last.next ?? undefined,
    initialData: fromCopy ? { pages: [fromCopy.page], pageParams: [null] } : undefined,
    // The copy counts as old (updated at 1 ms after the epoch), so it is read again at once.
    initialDataUpdatedAt: fromCopy ? 1 : undefined,
    // While a new search is on its way, the cards of the last one stay (the search box shows it is busy).
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => query.data?.pages.flatMap((p) => p.rows), [query.data]);
  const savedAt =
    fromCopy && query.data !== undefined && !query.isPlaceholderData && query.dataUpdatedAt <= 1
      ? fromCopy.savedAt
      : null;
  return { query, rows, savedAt };
}

import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import { STORAGE_KEYS } from '../session/keys';
import { sessionStore } from '../session/session-store';

/**
 * Cached copies of lists (spec sections 4 and 9). A list named by the spec (seasons, industry_analytics,
 * year_end_forms, ih_transfers ...) is kept under its own key as the plain data, as the login sequence writes it;
 * other lists live in one map under `cached_lists`. When each copy was saved is kept under `cache_saved_at`.
 * All of these keys belong to the session, so logout removes them (never shown to the next user).
 */
export type CacheRef = { specKey: string } | { listKey: string };

type SavedAtMap = Record<string, number>;
type ListMap = Record<string, unknown>;

const refId = (ref: CacheRef) => ('specKey' in ref ? ref.specKey : `list:${ref.listKey}`);

/** JSON without cycles: the deserializer shares related objects, so a repeated ancestor becomes its identifier. */
export function toPlainJson(value: unknown): unknown {
  const stack = new Set<unknown>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (stack.has(v)) {
      const r = v as { id?: unknown; type?: unknown };
      return { id: r.id, type: r.type };
    }
    stack.add(v);
    const out = Array.isArray(v) ? v.map(walk) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    stack.delete(v);
    return out;
  };
  return walk(value);
}

export function readCachedCopy<T>(ref: CacheRef): { data: T; savedAt: number | null } | null {
  let data: T | null | undefined;
  if ('specKey' in ref) data = sessionStore.getJson<T>(ref.specKey);
  else data = sessionStore.getJson<ListMap>(STORAGE_KEYS.cachedLists)?.[ref.listKey] as T | undefined;
  if (data === null || data === undefined) return null;
  const savedAt =
    sessionStore.getJson<SavedAtMap>(STORAGE_KEYS.cacheSavedAt)?.[refId(ref)] ??
    sessionStore.getToken()?.stored_at ??
    null;
  return { data, savedAt };
}

export function writeCachedCopy(ref: CacheRef, data: unknown, now = Date.now()): void {
  const plain = toPlainJson(data);
  if ('specKey' in ref) sessionStore.setItem(ref.specKey, plain);
  else {
    const lists = sessionStore.getJson<ListMap>(STORAGE_KEYS.cachedLists) ?? {};
    lists[ref.listKey] = plain;
    sessionStore.setItem(STORAGE_KEYS.cachedLists, lists);
  }
  const times = sessionStore.getJson<SavedAtMap>(STORAGE_KEYS.cacheSavedAt) ?? {};
  times[refId(ref)] = now;
  sessionStore.setItem(STORAGE_KEYS.cacheSavedAt, times);
}

/**
 * A query that starts from the cached copy (shown at once, after a reload or offline) and refreshes from the server
 * when it can; every successful fetch replaces the copy. `savedAt` is set while the data shown is the saved copy.
 */
export function useCachedQuery<T>(options: {
  queryKey: QueryKey;
  queryFn: (signal: AbortSignal) => Promise<T>;
  cache: CacheRef | null;
  enabled?: boolean;
}) {
  const { cache } = options;
  const cacheId = cache ? refId(cache) : '';
  // Read once per cache entry: the copy is the starting point, not a live source.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the entry's id, not the object
  const initial = useMemo(() => (cache ? readCachedCopy<T>(cache) : null), [cacheId]);
  const query = useQuery<T>({
    queryKey: options.queryKey,
    enabled: options.enabled,
    queryFn: async ({ signal }) => {
      const data = await options.queryFn(signal);
      if (cache) writeCachedCopy(cache, data);
      return data;
    },
    initialData: initial ? initial.data : undefined,
    // The copy counts as old (updated at 1 ms after the epoch), so it is refetched at once.
    initialDataUpdatedAt: initial ? 1 : undefined,
  });
  const fromCache = initial !== null && query.data !== undefined && query.dataUpdatedAt <= 1;
  return { ...query, savedAt: fromCache ? initial.savedAt : null, fromCache };
}

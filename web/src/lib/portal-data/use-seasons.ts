import { useCachedQuery } from '../cache/cached-copy';
import { jsonApi } from '../jsonapi/client';
import { seasonsParams } from '../portal/season-params';
import type { Entity } from '../jsonapi/deserialize';
import { STORAGE_KEYS } from '../session/keys';
import { queryKeys } from '../query-keys';

/** All seasons, newest first (the login sequence seeds the same query and the `seasons` copy). */
export function useSeasons() {
  return useCachedQuery<Entity[]>({
    queryKey: queryKeys.seasons,
    cache: { specKey: STORAGE_KEYS.seasons },
    queryFn: (signal) => jsonApi.getAll('/jsonapi/node/season', seasonsParams(), signal),
  });
}

/** The current season: the first with field_current_season (spec section 3), else the newest. */
export function currentSeason(seasons: Entity[] | undefined): Entity | null {
  if (!seasons?.length) return null;
  return seasons.find((s) => s.field_current_season === true) ?? seasons[0];
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** Text isolated from the surrounding direction (first-strong isolate, U+2068..U+2069), so "2026-2027" or "alice" read right in Arabic. */
export const iso = (v: unknown): string => `\u2068${str(v)}\u2069`;
/** Left-to-right isolate, for season titles ("2026-2027") that have no letters to take a direction from. */
export const ltr = (v: unknown): string => `\u2066${str(v)}\u2069`;

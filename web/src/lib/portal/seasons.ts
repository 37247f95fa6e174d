import { useCachedQuery } from '../cache/cached-copy';
import { jsonApi } from '../jsonapi/client';
import { queryKeys } from '../query-keys';
import { STORAGE_KEYS } from '../session/keys';
import { bool, type ApiEntity } from './entities';
import { seasonsParams } from './season-params';

export type Season = ApiEntity<'node--season'>;

/** GET /jsonapi/node/season sorted by start date, newest first (the login sequence seeds this query). */
export function fetchSeasons(signal?: AbortSignal): Promise<Season[]> {
  return jsonApi.getAll<Season>('/jsonapi/node/season', seasonsParams(), signal);
}

/**
 * All seasons, newest first, starting from the login sequence's saved `seasons` copy (shown at once after a reload)
 * and refreshed behind it. `enabled: false` shows the saved copy without asking the server: the dashboard waits for
 * its batch, which seeds the same query.
 */
export function useSeasons({ enabled = true }: { enabled?: boolean } = {}) {
  return useCachedQuery<Season[]>({
    enabled,
    queryKey: queryKeys.seasons,
    cache: { specKey: STORAGE_KEYS.seasons },
    queryFn: (signal) => fetchSeasons(signal),
  });
}

/** The current season is the first with field_current_season true. */
export function currentSeasonOf(seasons: Season[] | undefined): Season | null {
  return seasons?.find((s) => bool(s, 'field_current_season')) ?? null;
}

/** The current season (spec section 3), else the newest: for pages that always show one season. */
export function currentOrNewestSeason(seasons: Season[] | undefined): Season | null {
  return currentSeasonOf(seasons) ?? seasons?.[0] ?? null;
}

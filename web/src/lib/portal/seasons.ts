import { useQuery } from '@tanstack/react-query';
import { jsonApi } from '../jsonapi/client';
import type { Entity } from '../jsonapi/deserialize';
import { queryKeys } from '../query-keys';
import { STORAGE_KEYS } from '../session/keys';
import { sessionStore } from '../session/session-store';
import { bool } from './entities';
import { seasonsParams } from './season-params';

/** GET /jsonapi/node/season sorted by start date, newest first (the login sequence seeds this query). */
export function fetchSeasons(signal?: AbortSignal): Promise<Entity[]> {
  return jsonApi.getAll('/jsonapi/node/season', seasonsParams(), signal);
}

/** `enabled: false` shows the saved copy (if any) without asking the server: the dashboard waits for its batch. */
export function useSeasons({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    enabled,
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: queryKeys.seasons,
    queryFn: ({ signal }) => fetchSeasons(signal),
    // The login sequence's cached copy shows at once after a reload; the list is refreshed behind it.
    initialData: () => sessionStore.getJson<Entity[]>(STORAGE_KEYS.seasons) ?? undefined,
    initialDataUpdatedAt: 0,
  });
}

/** The current season is the first with field_current_season true. */
export function currentSeasonOf(seasons: Entity[] | undefined): Entity | null {
  return seasons?.find((s) => bool(s, 'field_current_season')) ?? null;
}

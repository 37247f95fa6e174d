import { useQuery } from '@tanstack/react-query';
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { currentVersionOf, seasonIdOf, type MonthlyBundle } from '../../../lib/portal/packages';
import { queryKeys } from '../../../lib/query-keys';
import { getAllPackages, getForm, getVarieties } from '../api/forms-api';

export const formKey = (bundle: string, id: string) => ['form', bundle, id] as const;

export function useForm(bundle: MonthlyBundle | null, id: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: formKey(bundle ?? '', id ?? ''),
    queryFn: ({ signal }) => getForm(bundle!, id!, signal),
    enabled: !!bundle && !!id,
    staleTime: 0,
  });
}

export function useVarieties() {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false, queryKey: ['pecan-varieties'], queryFn: ({ signal }) => getVarieties(signal), staleTime: 10 * 60_000 });
}

/** Every package of the handler (all seasons), newest first; read when a form page first needs it. */
export function useAllPackages(handlerId: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: queryKeys.formsPackages(handlerId ?? ''),
    queryFn: ({ signal }) => getAllPackages(handlerId!, signal),
    enabled: !!handlerId,
  });
}

/**
 * The next package after the given one, in the order the packages are listed (a season's packages newest first,
 * then the seasons newest first): the following one in the season, or the first one of the next season.
 */
export function nextPackage(packages: Entity[], pkgId: string): Entity | null {
  const seasonOf = (p: Entity) => seasonIdOf(p) ?? '';
  const index = packages.findIndex((p) => p.id === pkgId);
  if (index < 0) return null;
  const season = seasonOf(packages[index]);
  const sameSeason = packages.slice(index + 1).find((p) => seasonOf(p) === season);
  if (sameSeason) return sameSeason;
  return packages.slice(index + 1).find((p) => seasonOf(p) !== season) ?? null;
}

export { currentVersionOf };

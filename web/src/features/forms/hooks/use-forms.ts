import { useQuery } from '@tanstack/react-query';
import { currentVersionOf, type MonthlyBundle } from '../../../lib/portal/packages';
import { queryKeys } from '../../../lib/query-keys';
import { getForm, getNextPackage, getVarieties } from '../api/forms-api';

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
    structuralSharing: false,
    queryKey: ['pecan-varieties'],
    queryFn: ({ signal }) => getVarieties(signal),
    staleTime: 10 * 60_000,
  });
}

/** The package after the one whose period is due on `dueAfter`, or null after the last; read when a form page shows. */
export function useNextPackage(handlerId: string | null, dueAfter: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: queryKeys.nextPackage(handlerId ?? '', dueAfter ?? ''),
    queryFn: ({ signal }) => getNextPackage(handlerId!, dueAfter!, signal),
    enabled: !!handlerId && !!dueAfter,
  });
}

export { currentVersionOf };

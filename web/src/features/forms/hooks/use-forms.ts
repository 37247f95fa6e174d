import { useQuery } from '@tanstack/react-query';
import { currentVersionOf, type MonthlyBundle } from '../../../lib/portal/packages';
import { formQuery, nextPackageQuery, varietiesQuery } from '../api/forms-api';

export function useForm(bundle: MonthlyBundle | null, id: string | null) {
  return useQuery({ ...formQuery(bundle!, id ?? ''), enabled: !!bundle && !!id });
}

export function useVarieties() {
  return useQuery(varietiesQuery());
}

/** The package after the one whose period is due on `dueAfter`, or null after the last; read when a form page shows. */
export function useNextPackage(handlerId: string | null, dueAfter: string | null) {
  return useQuery({ ...nextPackageQuery(handlerId ?? '', dueAfter ?? ''), enabled: !!handlerId && !!dueAfter });
}

export { currentVersionOf };

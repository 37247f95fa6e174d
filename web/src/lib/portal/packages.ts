import { useQuery } from '@tanstack/react-query';
import { seasonPackagesParams } from './package-params';
import { jsonApi } from '../jsonapi/client';
import type { Entity } from '../jsonapi/deserialize';
import { PACKAGES_KEY } from '../query-keys';
import { many, num, one, str } from './entities';

export type FormNumber = 1 | 2 | 3;
export const FORM_NUMBERS: FormNumber[] = [1, 2, 3];
export type MonthlyBundle = 'apc_form_1' | 'apc_form_2' | 'apc_form_3';
export const bundleOf = (n: FormNumber): MonthlyBundle => `apc_form_${n}` as MonthlyBundle;
export const numberOfBundle = (bundle: string): FormNumber | null =>
  bundle === 'apc_form_1' ? 1 : bundle === 'apc_form_2' ? 2 : bundle === 'apc_form_3' ? 3 : null;

export { currentSeasonPackagesParams, nextPackageParams, seasonPackagesParams } from './package-params';

/** The id of the season a package's reporting period belongs to. */
export const seasonIdOf = (pkg: Entity): string | null => one(periodOf(pkg), 'field_season')?.id ?? null;

export { PACKAGES_KEY };
export const seasonPackagesKey = (handlerId: string, seasonId: string) =>
  [PACKAGES_KEY, handlerId, 'season', seasonId] as const;

export function fetchSeasonPackages(handlerId: string, seasonId: string, signal?: AbortSignal): Promise<Entity[]> {
  return jsonApi.getAll('/jsonapi/node/reporting_forms_package', seasonPackagesParams(handlerId, seasonId), signal);
}

export function useSeasonPackages(handlerId: string | null, seasonId: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: seasonPackagesKey(handlerId ?? '', seasonId ?? ''),
    queryFn: ({ signal }) => fetchSeasonPackages(handlerId!, seasonId!, signal),
    enabled: !!handlerId && !!seasonId,
  });
}

export const periodOf = (pkg: Entity): Entity | null => one(pkg, 'field_reporting_period');
export const dueDateOf = (pkg: Entity): string | null => str(periodOf(pkg), 'field_due_date');
export const periodMonthOf = (pkg: Entity): string | null => str(periodOf(pkg), 'field_period_month');
/** The versions of form n in a package, oldest first; the last is the current one. */
export const versionsOf = (pkg: Entity, n: FormNumber): Entity[] => many(pkg, `field_form_${n}`);
export const currentVersionOf = (pkg: Entity, n: FormNumber): Entity | null => {
  const list = versionsOf(pkg, n);
  return list.length ? list[list.length - 1] : null;
};

export type FormDisplayStatus =
  'draft' | 'certified' | 'amended' | 'overdue' | 'superseded' | 'amendmentDraft' | 'missing';

/** What a version shows: draft, certified, amended (a certified amendment), overdue (a draft past its due date). */
export function formDisplayStatus(
  form: Entity | null,
  dueDate: string | null,
  today: string,
  isCurrent = true,
): FormDisplayStatus {
  if (!form) return 'missing';
  const status = str(form, 'field_form_status');
  const amendment = (num(form, 'field_amendment_number') ?? 0) > 0;
  if (status === 'superseded' || (!isCurrent && status === 'certified')) return 'superseded';
  if (status === 'certified') return amendment ? 'amended' : 'certified';
  if (amendment) return 'amendmentDraft';
  return dueDate && today > dueDate ? 'overdue' : 'draft';
}

export const STATUS_COLORS: Record<FormDisplayStatus, string> = {
  draft: 'blue',
  certified: 'green',
  amended: 'cyan',
  overdue: 'red',
  superseded: 'default',
  amendmentDraft: 'purple',
  missing: 'default',
};

import { useQuery } from '@tanstack/react-query';
import { seasonPackagesParams } from './package-params';
import { jsonApi } from '../jsonapi/client';
import { PACKAGES_KEY } from '../query-keys';
import { attr, many, one, type ApiEntity } from './entities';

export type FormsPackage = ApiEntity<'node--reporting_forms_package'>;
/** A version of form 1, 2 or 3. */
export type MonthlyForm = ApiEntity<'node--apc_form_1' | 'node--apc_form_2' | 'node--apc_form_3'>;

export type FormNumber = 1 | 2 | 3;
export const FORM_NUMBERS: FormNumber[] = [1, 2, 3];
export type MonthlyBundle = 'apc_form_1' | 'apc_form_2' | 'apc_form_3';
export const bundleOf = (n: FormNumber): MonthlyBundle => `apc_form_${n}` as MonthlyBundle;
export const numberOfBundle = (bundle: string): FormNumber | null =>
  bundle === 'apc_form_1' ? 1 : bundle === 'apc_form_2' ? 2 : bundle === 'apc_form_3' ? 3 : null;

export { currentSeasonPackagesParams, nextPackageParams, seasonPackagesParams } from './package-params';

/** The id of the season a package's reporting period belongs to. */
export const seasonIdOf = (pkg: FormsPackage): string | null => one(periodOf(pkg), 'field_season')?.id ?? null;

export { PACKAGES_KEY };
export const seasonPackagesKey = (handlerId: string, seasonId: string) =>
  [PACKAGES_KEY, handlerId, 'season', seasonId] as const;

export function fetchSeasonPackages(
  handlerId: string,
  seasonId: string,
  signal?: AbortSignal,
): Promise<FormsPackage[]> {
  return jsonApi.getAll<FormsPackage>(
    '/jsonapi/node/reporting_forms_package',
    seasonPackagesParams(handlerId, seasonId),
    signal,
  );
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

export const periodOf = (pkg: FormsPackage) => one(pkg, 'field_reporting_period');
export const dueDateOf = (pkg: FormsPackage): string | null => attr(periodOf(pkg), 'field_due_date');
export const periodMonthOf = (pkg: FormsPackage): string | null => attr(periodOf(pkg), 'field_period_month');
/** The versions of form n in a package, oldest first; the last is the current one. */
export const versionsOf = (pkg: FormsPackage, n: FormNumber): MonthlyForm[] => many(pkg, `field_form_${n}`);
export const currentVersionOf = (pkg: FormsPackage, n: FormNumber): MonthlyForm | null => {
  const list = versionsOf(pkg, n);
  return list.length ? list[list.length - 1] : null;
};

export type FormDisplayStatus =
  'draft' | 'certified' | 'amended' | 'overdue' | 'superseded' | 'amendmentDraft' | 'missing';

/** What a version shows: draft, certified, amended (a certified amendment), overdue (a draft past its due date). */
export function formDisplayStatus(
  form: MonthlyForm | null,
  dueDate: string | null,
  today: string,
  isCurrent = true,
): FormDisplayStatus {
  if (!form) return 'missing';
  const status = attr(form, 'field_form_status');
  const amendment = (attr(form, 'field_amendment_number') ?? 0) > 0;
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

import { useQuery } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi } from '../jsonapi/client';
import type { Entity } from '../jsonapi/deserialize';
import { many, num, one, str } from './entities';

export type FormNumber = 1 | 2 | 3;
export const FORM_NUMBERS: FormNumber[] = [1, 2, 3];
export type MonthlyBundle = 'apc_form_1' | 'apc_form_2' | 'apc_form_3';
export const bundleOf = (n: FormNumber): MonthlyBundle => `apc_form_${n}` as MonthlyBundle;
export const numberOfBundle = (bundle: string): FormNumber | null =>
  bundle === 'apc_form_1' ? 1 : bundle === 'apc_form_2' ? 2 : bundle === 'apc_form_3' ? 3 : null;

/** What a package is read with: its period, its forms' versions and their PDFs. */
const PACKAGE_INCLUDES = [
  'field_reporting_period',
  'field_form_1',
  'field_form_2',
  'field_form_3',
  'field_form_1.field_form_1_pdf',
  'field_form_2.field_form_2_pdf',
  'field_form_3.field_form_3_pdf',
];

/** One season's packages of a handler, newest reporting period first, with periods, forms and their PDFs. */
export function seasonPackagesParams(handlerId: string, seasonId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_season.id', seasonId)
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(PACKAGE_INCLUDES)
    .addPageLimit(50);
}

/**
 * The current season's packages of a handler, as one season's (same includes and order), found by the season's flag:
 * the sign-in's batch reads it before it knows the current season's id (the seasons come in the same batch).
 */
export function currentSeasonPackagesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_season.field_current_season', '1')
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(PACKAGE_INCLUDES)
    .addPageLimit(50);
}

/**
 * All packages of the handler (every season), newest reporting period first, with periods and forms but not their
 * PDFs: the form pages read it to find a form's package and the next one, and each form's own read carries its PDF.
 */
export function allPackagesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(PACKAGE_INCLUDES.filter((path) => !path.endsWith('_pdf')))
    .addPageLimit(500);
}

/** The id of the season a package's reporting period belongs to. */
export const seasonIdOf = (pkg: Entity): string | null => one(periodOf(pkg), 'field_season')?.id ?? null;

/** Every key of the packages queries starts with this, so one invalidation refreshes them all. */
export const PACKAGES_KEY = 'forms-packages';
export const seasonPackagesKey = (handlerId: string, seasonId: string) => [PACKAGES_KEY, handlerId, 'season', seasonId] as const;

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

export type FormDisplayStatus = 'draft' | 'certified' | 'amended' | 'overdue' | 'superseded' | 'amendmentDraft' | 'missing';

/** What a version shows: draft, certified, amended (a certified amendment), overdue (a draft past its due date). */
export function formDisplayStatus(form: Entity | null, dueDate: string | null, today: string, isCurrent = true): FormDisplayStatus {
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

import { queryOptions } from '@tanstack/react-query';
import { formParams, type RowBundle } from './form-params';
import { DrupalJsonApiParams, jsonApi, ref } from '../../../lib/jsonapi/client';
import { firstOf } from '../../../lib/jsonapi/deserialize';
import {
  nextPackageParams,
  type FormsPackage,
  type MonthlyBundle,
  type MonthlyForm,
} from '../../../lib/portal/packages';
import type { ApiEntity } from '../../../lib/portal/entities';
import { queryKeys } from '../../../lib/query-keys';

export { PDF_FIELD, ROWS_OF, type RowBundle } from './form-params';

/** One form with its period (and season), package, PDF and rows. */
export function getForm(bundle: MonthlyBundle, id: string, signal?: AbortSignal): Promise<MonthlyForm> {
  return jsonApi.getOne<MonthlyForm>(`/jsonapi/node/${bundle}/${encodeURIComponent(id)}`, formParams(bundle), signal);
}

/**
 * PATCH a draft with its entered fields; `changed` guards against overwriting someone else's edit (409). Returns the
 * form's new `changed`, which guards the next save.
 */
export async function updateForm(
  bundle: MonthlyBundle,
  id: string,
  attributes: Record<string, unknown>,
  changed: string | null,
): Promise<string | null> {
  const saved = await jsonApi.update<MonthlyForm>(`node--${bundle}`, id, attributes, { changed });
  return typeof saved.changed === 'string' ? saved.changed : changed;
}

export async function certifyForm(bundle: MonthlyBundle, id: string, name: string, title: string): Promise<void> {
  await jsonApi.update(`node--${bundle}`, id, {
    field_certified: true,
    field_certification_name: name,
    field_certification_title: title,
  });
}

/** POST the amendment of a certified form, then add it to the package (spec section 7). Returns the new id. */
export async function amendForm(
  bundle: MonthlyBundle,
  formId: string,
  packageId: string,
  reason: string,
): Promise<string> {
  const amendment = await jsonApi.create<MonthlyForm>(
    `node--${bundle}`,
    { field_amendment_reason: reason },
    { field_amendment_of: ref(`node--${bundle}`, formId) },
  );
  const n = bundle.slice(-1);
  await jsonApi.relate('node--reporting_forms_package', packageId, `field_form_${n}`, [
    ref(`node--${bundle}`, amendment.id),
  ]);
  return amendment.id;
}

export async function createRow(
  rowBundle: RowBundle,
  formBundle: MonthlyBundle,
  formId: string,
  attributes: Record<string, unknown>,
): Promise<void> {
  await jsonApi.create(`node--${rowBundle}`, attributes, { field_form: ref(`node--${formBundle}`, formId) });
}

export async function updateRow(rowBundle: RowBundle, id: string, attributes: Record<string, unknown>): Promise<void> {
  await jsonApi.update(`node--${rowBundle}`, id, attributes);
}

export async function deleteRow(rowBundle: RowBundle, id: string): Promise<void> {
  await jsonApi.remove(`node--${rowBundle}`, id);
}

/** The variety list, in the order staff gave it. */
export async function getVarieties(signal?: AbortSignal): Promise<string[]> {
  const terms = await jsonApi.getAll<ApiEntity<'taxonomy_term--pecan_variety'>>(
    '/jsonapi/taxonomy_term/pecan_variety',
    new DrupalJsonApiParams().addSort('weight', 'ASC').addPageLimit(200),
    signal,
  );
  return terms.map((t) => (typeof t.name === 'string' ? t.name : '')).filter(Boolean);
}

/**
 * The handler's package after the one whose period is due on `dueAfter` (package-params.ts), or null after the last.
 */
export async function getNextPackage(
  handlerId: string,
  dueAfter: string,
  signal?: AbortSignal,
): Promise<FormsPackage | null> {
  return firstOf<FormsPackage>(
    await jsonApi.request('/jsonapi/node/reporting_forms_package', {
      params: nextPackageParams(handlerId, dueAfter),
      signal,
    }),
  );
}

// ---- Query keys and options ----

/**
 * The forms' query keys. A form is under queryKeys.forms and what a certification changes besides it under
 * queryKeys.packages (lib/query-keys.ts), so that a certification or an amendment refreshes them all.
 */
export const formKeys = {
  one: (bundle: string, id: string) => [...queryKeys.forms, bundle, id] as const,
  bundleOf: (formId: string) => ['form-bundle', formId] as const,
  varieties: ['pecan-varieties'] as const,
  receivers: (ids: string[]) => ['transfer-receivers', ids] as const,
  form1Context: (handlerId: string, month: string) =>
    [...queryKeys.packages, 'form1-context', handlerId, month] as const,
  staleForm1: (handlerId: string, fromMonth: string) =>
    [...queryKeys.packages, 'stale-form1', handlerId, fromMonth] as const,
};

export const formQuery = (bundle: MonthlyBundle, id: string) =>
  queryOptions({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: formKeys.one(bundle, id),
    queryFn: ({ signal }) => getForm(bundle, id, signal),
    staleTime: 0,
  });

export const varietiesQuery = () =>
  queryOptions({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: formKeys.varieties,
    queryFn: ({ signal }) => getVarieties(signal),
    staleTime: 10 * 60_000,
  });

/** Under the packages' key (lib/query-keys.ts), so that a certification or an amendment refreshes it with them. */
export const nextPackageQuery = (handlerId: string, dueAfter: string) =>
  queryOptions({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: queryKeys.nextPackage(handlerId, dueAfter),
    queryFn: ({ signal }) => getNextPackage(handlerId, dueAfter, signal),
  });

import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { firstOf } from '../../../lib/jsonapi/deserialize';
import {
  nextPackageParams,
  type FormsPackage,
  type MonthlyBundle,
  type MonthlyForm,
} from '../../../lib/portal/packages';

export type RowBundle = 'pecans_purchased_non_us' | 'export_by_country';
export const ROWS_OF: Record<
  MonthlyBundle,
  { bundle: RowBundle; field: 'field_purchased_outside_us' | 'field_exports_by_country' } | null
> = {
  apc_form_1: null,
  apc_form_2: { bundle: 'pecans_purchased_non_us', field: 'field_purchased_outside_us' },
  apc_form_3: { bundle: 'export_by_country', field: 'field_exports_by_country' },
};
export const PDF_FIELD: Record<MonthlyBundle, 'field_form_1_pdf' | 'field_form_2_pdf' | 'field_form_3_pdf'> = {
  apc_form_1: 'field_form_1_pdf',
  apc_form_2: 'field_form_2_pdf',
  apc_form_3: 'field_form_3_pdf',
};

/** One form with its period (and season), package, PDF and rows. */
export function getForm(bundle: MonthlyBundle, id: string, signal?: AbortSignal): Promise<MonthlyForm> {
  const include: string[] = ['field_reporting_period', 'field_reporting_forms_package', PDF_FIELD[bundle]];
  const rows = ROWS_OF[bundle];
  if (rows) include.push(rows.field);
  return jsonApi.getOne<MonthlyForm>(
    `/jsonapi/node/${bundle}/${encodeURIComponent(id)}`,
    new DrupalJsonApiParams().addInclude(include),
    signal,
  );
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
  const doc = await jsonApi.request(`/jsonapi/node/${bundle}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { data: { type: `node--${bundle}`, id, attributes, ...(changed ? { meta: { changed } } : {}) } },
  });
  const data = doc?.data;
  const next = data && !Array.isArray(data) ? data.attributes?.changed : null;
  return typeof next === 'string' ? next : changed;
}

export async function certifyForm(bundle: MonthlyBundle, id: string, name: string, title: string): Promise<void> {
  await jsonApi.request(`/jsonapi/node/${bundle}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: {
      data: {
        type: `node--${bundle}`,
        id,
        attributes: { field_certified: true, field_certification_name: name, field_certification_title: title },
      },
    },
  });
}

/** POST the amendment of a certified form, then add it to the package (spec section 7). Returns the new id. */
export async function amendForm(
  bundle: MonthlyBundle,
  formId: string,
  packageId: string,
  reason: string,
): Promise<string> {
  const doc = await jsonApi.request(`/jsonapi/node/${bundle}`, {
    method: 'POST',
    body: {
      data: {
        type: `node--${bundle}`,
        attributes: { field_amendment_reason: reason },
        relationships: { field_amendment_of: { data: { type: `node--${bundle}`, id: formId } } },
      },
    },
  });
  const data = doc?.data;
  if (!data || Array.isArray(data)) throw new Error('An error has occured.');
  const n = bundle.slice(-1);
  await jsonApi.request(
    `/jsonapi/node/reporting_forms_package/${encodeURIComponent(packageId)}/relationships/field_form_${n}`,
    {
      method: 'POST',
      body: { data: [{ type: `node--${bundle}`, id: data.id }] },
    },
  );
  return data.id;
}

export async function createRow(
  rowBundle: RowBundle,
  formBundle: MonthlyBundle,
  formId: string,
  attributes: Record<string, unknown>,
): Promise<void> {
  await jsonApi.request(`/jsonapi/node/${rowBundle}`, {
    method: 'POST',
    body: {
      data: {
        type: `node--${rowBundle}`,
        attributes,
        relationships: { field_form: { data: { type: `node--${formBundle}`, id: formId } } },
      },
    },
  });
}

export async function updateRow(rowBundle: RowBundle, id: string, attributes: Record<string, unknown>): Promise<void> {
  await jsonApi.request(`/jsonapi/node/${rowBundle}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { data: { type: `node--${rowBundle}`, id, attributes } },
  });
}

export async function deleteRow(rowBundle: RowBundle, id: string): Promise<void> {
  await jsonApi.request(`/jsonapi/node/${rowBundle}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The variety list, in the order staff gave it. */
export async function getVarieties(signal?: AbortSignal): Promise<string[]> {
  const terms = await jsonApi.getAll(
    '/jsonapi/taxonomy_term/pecan_variety',
    new DrupalJsonApiParams().addSort('weight', 'ASC').addPageLimit(200),
    signal,
  );
  return terms.map((t) => (typeof t.name === 'string' ? t.name : '')).filter(Boolean);
}

/** The handler's package after the one whose period is due on `dueAfter` (package-params.ts), or null after the last. */
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

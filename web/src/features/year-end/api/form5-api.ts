import { queryOptions } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi, ref } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';

/** A year-end form (form 5) as the API sends it. */
export type Form5 = ApiEntity<'node--apc_form_5'>;

export const form5Keys = {
  /** Every handler's list of year-end forms (a save or a certification refreshes them). */
  lists: ['year-end-forms'] as const,
  list: (handlerId: string) => ['year-end-forms', handlerId] as const,
  one: (id: string) => ['year-end-form', id] as const,
};

export function form5ListParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addSort('field_season.field_reporting_due_date', 'DESC')
    .addInclude(['field_season', 'field_form_5_pdf'])
    .addPageLimit(200);
}

export const fetchForm5List = (handlerId: string, signal?: AbortSignal) =>
  jsonApi.getAll<Form5>('/jsonapi/node/apc_form_5', form5ListParams(handlerId), signal);

export const fetchForm5 = (id: string, signal?: AbortSignal) =>
  jsonApi.getOne<Form5>(
    `/jsonapi/node/apc_form_5/${encodeURIComponent(id)}`,
    new DrupalJsonApiParams().addInclude(['field_season', 'field_form_5_pdf', 'field_amendment_of']),
    signal,
  );

export const form5Query = (id: string) =>
  queryOptions({ queryKey: form5Keys.one(id), queryFn: ({ signal }) => fetchForm5(id, signal) });

/** Starts the season's year-end form. */
export const startForm5 = (seasonId: string, handlerId: string): Promise<Form5> =>
  jsonApi.create<Form5>(
    'node--apc_form_5',
    {},
    { field_season: ref('node--season', seasonId), field_handler: ref('node--handler', handlerId) },
  );

/** An amendment of a certified form 5: a new version that starts as a copy, with the reason for it. */
export const amendForm5 = (certifiedId: string, reason: string): Promise<Form5> =>
  jsonApi.create<Form5>(
    'node--apc_form_5',
    { field_amendment_reason: reason },
    { field_amendment_of: ref('node--apc_form_5', certifiedId) },
  );

export const patchForm5 = (id: string, attributes: Record<string, unknown>, changed: unknown): Promise<Form5> =>
  jsonApi.update<Form5>('node--apc_form_5', id, attributes, { changed });

import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { deserialize, type Entity } from '../../../lib/jsonapi/deserialize';

export const form5Keys = {
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
  jsonApi.getAll('/jsonapi/node/apc_form_5', form5ListParams(handlerId), signal);

export const fetchForm5 = (id: string, signal?: AbortSignal) =>
  jsonApi.getOne(
    `/jsonapi/node/apc_form_5/${encodeURIComponent(id)}`,
    new DrupalJsonApiParams().addInclude(['field_season', 'field_form_5_pdf', 'field_amendment_of']),
    signal,
  );

async function created(doc: Awaited<ReturnType<typeof jsonApi.request>>): Promise<Entity> {
  const data = doc ? deserialize(doc) : null;
  if (!data || Array.isArray(data)) throw new Error('An error has occured.');
  return data;
}

/** Starts the season's year-end form. */
export async function startForm5(seasonId: string, handlerId: string): Promise<Entity> {
  return created(
    await jsonApi.request('/jsonapi/node/apc_form_5', {
      method: 'POST',
      body: {
        data: {
          type: 'node--apc_form_5',
          attributes: {},
          relationships: {
            field_season: { data: { type: 'node--season', id: seasonId } },
            field_handler: { data: { type: 'node--handler', id: handlerId } },
          },
        },
      },
    }),
  );
}

/** An amendment of a certified form 5: a new version that starts as a copy, with the reason for it. */
export async function amendForm5(certifiedId: string, reason: string): Promise<Entity> {
  return created(
    await jsonApi.request('/jsonapi/node/apc_form_5', {
      method: 'POST',
      body: {
        data: {
          type: 'node--apc_form_5',
          attributes: { field_amendment_reason: reason },
          relationships: { field_amendment_of: { data: { type: 'node--apc_form_5', id: certifiedId } } },
        },
      },
    }),
  );
}

export async function patchForm5(id: string, attributes: Record<string, unknown>, changed: unknown): Promise<Entity> {
  return created(
    await jsonApi.request(`/jsonapi/node/apc_form_5/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: { data: { type: 'node--apc_form_5', id, attributes, meta: changed ? { changed } : undefined } },
    }),
  );
}

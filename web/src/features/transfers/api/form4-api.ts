import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { deserialize, type Entity } from '../../../lib/jsonapi/deserialize';

export const form4Keys = {
  list: (handlerId: string, seasonId: string, activity: string) =>
    ['transfers', handlerId, seasonId, activity] as const,
};

/** The season's agreements where the handler transfers or receives (spec section 7). */
export function form4ListParams(handlerId: string, seasonId: string, activity: 'active' | 'cancelled') {
  return new DrupalJsonApiParams()
    .addFilter('field_season.id', seasonId)
    .addFilter('field_form_activity', activity)
    .addGroup('party', 'OR')
    .addFilter('field_receiving_handler.id', handlerId, '=', 'party')
    .addFilter('field_transferring_handler.id', handlerId, '=', 'party')
    .addInclude(['field_receiving_handler', 'field_transferring_handler', 'field_form_4_pdf', 'field_season'])
    .addSort('created', 'DESC')
    .addPageLimit(200);
}

export const fetchForm4List = (
  handlerId: string,
  seasonId: string,
  activity: 'active' | 'cancelled',
  signal?: AbortSignal,
) => jsonApi.getAll('/jsonapi/node/apc_form_4', form4ListParams(handlerId, seasonId, activity), signal);

function one(doc: Awaited<ReturnType<typeof jsonApi.request>>): Entity {
  const data = doc ? deserialize(doc) : null;
  if (!data || Array.isArray(data)) throw new Error('An error has occured.');
  return data;
}

export interface NewTransfer {
  transferringId: string;
  receivingId: string;
  seasonId: string;
  responsible: 'transferring' | 'receiving';
  firstMonth: string;
  name: string;
  title: string;
}

export async function fileForm4(n: NewTransfer): Promise<Entity> {
  return one(
    await jsonApi.request('/jsonapi/node/apc_form_4', {
      method: 'POST',
      body: {
        data: {
          type: 'node--apc_form_4',
          attributes: {
            field_responsible_handler: n.responsible,
            field_first_transfer_month: n.firstMonth,
            field_certified: true,
            field_certification_name: n.name,
            ...(n.title ? { field_certification_title: n.title } : {}),
          },
          relationships: {
            field_transferring_handler: { data: { type: 'node--handler', id: n.transferringId } },
            field_receiving_handler: { data: { type: 'node--handler', id: n.receivingId } },
            field_season: { data: { type: 'node--season', id: n.seasonId } },
          },
        },
      },
    }),
  );
}

export async function patchForm4(form: Entity, attributes: Record<string, unknown>): Promise<void> {
  await jsonApi.request(`/jsonapi/node/apc_form_4/${encodeURIComponent(form.id)}`, {
    method: 'PATCH',
    body: {
      data: {
        type: 'node--apc_form_4',
        id: form.id,
        attributes,
        meta: form.changed ? { changed: form.changed } : undefined,
      },
    },
  });
}

import { DrupalJsonApiParams, jsonApi, ref } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';
import { queryKeys } from '../../../lib/query-keys';

/** A transfer agreement (form 4) as the API sends it. */
export type Form4 = ApiEntity<'node--apc_form_4'>;

/** Under queryKeys.transfers (lib/query-keys.ts), with the dashboard's count of those awaiting countersignature. */
export const form4Keys = {
  all: queryKeys.transfers,
  list: (handlerId: string, seasonId: string, activity: string) =>
    [...queryKeys.transfers, handlerId, seasonId, activity] as const,
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
) => jsonApi.getAll<Form4>('/jsonapi/node/apc_form_4', form4ListParams(handlerId, seasonId, activity), signal);

export interface NewTransfer {
  transferringId: string;
  receivingId: string;
  seasonId: string;
  responsible: 'transferring' | 'receiving';
  firstMonth: string;
  name: string;
  title: string;
}

export const fileForm4 = (n: NewTransfer): Promise<Form4> =>
  jsonApi.create<Form4>(
    'node--apc_form_4',
    {
      field_responsible_handler: n.responsible,
      field_first_transfer_month: n.firstMonth,
      field_certified: true,
      field_certification_name: n.name,
      ...(n.title ? { field_certification_title: n.title } : {}),
    },
    {
      field_transferring_handler: ref('node--handler', n.transferringId),
      field_receiving_handler: ref('node--handler', n.receivingId),
      field_season: ref('node--season', n.seasonId),
    },
  );

export async function patchForm4(form: Form4, attributes: Record<string, unknown>): Promise<void> {
  await jsonApi.update('node--apc_form_4', form.id, attributes, { changed: form.changed });
}

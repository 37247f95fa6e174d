import { useQuery } from '@tanstack/react-query';
import { jsonApi } from '../jsonapi/client';
import type { ApiEntity } from './entities';
import { awaitingCountersignatureParams } from './transfer-params';
import { queryKeys } from '../query-keys';

/**
 * Under the transfers page's keys (['transfers', …]): a countersignature or a cancellation there, which refreshes
 * every 'transfers' query, takes the dashboard's notice away too.
 */
export const awaitingCountersignatureKey = (handlerId: string) =>
  [...queryKeys.transfers, handlerId, 'awaiting'] as const;

/** The agreements awaiting the handler's countersignature (seeded by the sign-in's batch, see startup-reads.ts). */
export function useAwaitingCountersignature(handlerId: string | null) {
  return useQuery({
    structuralSharing: false,
    queryKey: awaitingCountersignatureKey(handlerId ?? ''),
    queryFn: ({ signal }) =>
      jsonApi.getAll<ApiEntity<'node--apc_form_4'>>(
        '/jsonapi/node/apc_form_4',
        awaitingCountersignatureParams(handlerId!),
        signal,
      ),
    enabled: !!handlerId,
  });
}

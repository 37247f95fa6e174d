import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { confirmationQuery, confirmPacket, type ConfirmInput } from '../api/packet-confirmation';

export function usePacketConfirmation(handlerId: string | null, seasonId: string | null) {
  return useQuery({ ...confirmationQuery(handlerId ?? '', seasonId ?? ''), enabled: !!handlerId && !!seasonId });
}

export function useConfirmPacket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ConfirmInput) => confirmPacket(input),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.packetConfirmations }),
  });
}

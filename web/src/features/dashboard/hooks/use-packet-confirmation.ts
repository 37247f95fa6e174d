import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { confirmationKey } from '../../../lib/query-keys';
import { confirmPacket, findConfirmation, type ConfirmInput } from '../api/packet-confirmation';

export function usePacketConfirmation(handlerId: string | null, seasonId: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: confirmationKey(handlerId ?? '', seasonId ?? ''),
    queryFn: ({ signal }) => findConfirmation(handlerId!, seasonId!, signal),
    enabled: !!handlerId && !!seasonId,
  });
}

export function useConfirmPacket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ConfirmInput) => confirmPacket(input),
    onSettled: () => client.invalidateQueries({ queryKey: ['packet-confirmation'] }),
  });
}

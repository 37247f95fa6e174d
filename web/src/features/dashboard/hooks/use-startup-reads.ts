import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/session/use-session';
import { handlerOf, loadPortalData, readUser, seedUser, startupReadsKey } from '../api/startup-reads';

/**
 * The dashboard's reads in two requests (the user, then one batch) when the sign-in did not just make them: a
 * reload of a signed-in page, or a new tab. `ready` once they are done or failed; a failed read is left to the
 * card that needs it, which reads it itself and shows its own error.
 */
export function useStartupReads(): { ready: boolean } {
  const queryClient = useQueryClient();
  const { profile, signedIn, isStaff } = useSession();
  const username = profile.username;
  const enabled = signedIn && !!username;
  const query = useQuery({
    queryKey: startupReadsKey(username ?? ''),
    queryFn: async () => {
      const user = await readUser(username!);
      const handler = isStaff ? null : handlerOf(user);
      seedUser(queryClient, user, handler);
      await loadPortalData(queryClient, handler);
      return true;
    },
    enabled,
    staleTime: Infinity,
    retry: false,
  });
  return { ready: !enabled || !query.isPending };
}

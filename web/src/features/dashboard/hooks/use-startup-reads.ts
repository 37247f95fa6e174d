import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/session/use-session';
import { startupReadsQuery } from '../../../lib/portal/startup-reads';

/**
 * The dashboard's reads in one request (a batch: the user, then what needs its handler) when the sign-in did not just
 * make them: a reload of a signed-in page, or a new tab. They start when the dashboard has rendered: started before,
 * Lighthouse's simulation counts them against the first screen, which no longer waits for them (decision 0007). `ready`
 * once they are done or failed; a failed read is left to the card that needs it, which reads it itself and shows its
 * own error.
 */
export function useStartupReads(): { ready: boolean } {
  const queryClient = useQueryClient();
  const { profile, signedIn } = useSession();
  const username = profile.username;
  const enabled = signedIn && !!username;
  const query = useQuery({ ...startupReadsQuery(queryClient, username ?? ''), enabled });
  return { ready: !enabled || !query.isPending };
}

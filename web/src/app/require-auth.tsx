import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session/use-session';

/** Protected routes: without a stored token go to /signin, carrying where the visitor came from. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { signedIn } = useSession();
  const location = useLocation();
  if (!signedIn) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return (
      <Navigate
        to={`/signin?from=${encodeURIComponent(from)}`}
        state={{ from: { pathname: location.pathname, search: location.search, hash: location.hash } }}
        replace
      />
    );
  }
  return <>{children}</>;
}

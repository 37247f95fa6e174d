import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { onLogout } from '../lib/session/session';

/** Top of the route tree: follows session ends (timer, refresh failure, other tab) and shows lazy pages. */
export function RootLayout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onLogout((reason) => {
        queryClient.clear();
        if (reason === 'user') return; // the Logout action navigates to '/' itself
        navigate('/signin', { replace: true, state: { sessionEnded: true } });
      }),
    [navigate, queryClient],
  );
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <Outlet />
    </Suspense>
  );
}

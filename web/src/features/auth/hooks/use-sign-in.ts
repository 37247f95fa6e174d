import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { i18n } from '../../../lib/i18n/i18n';
import type { LoginResult } from '../api/login-sequence';

export interface SignInValues {
  username: string;
  password: string;
  remember: boolean;
  /** The staff second factor: `totp`, `recovery_code`, or `enrollment_token` with `totp`. */
  factor?: Record<string, string>;
}

export interface SignInCallbacks {
  onSuccess?: (r: LoginResult) => void;
  onError?: (error: unknown) => void;
  onSettled?: () => void;
  /** The recovery codes of a just-finished authenticator set-up; sign-in goes on when the promise resolves. */
  onRecoveryCodes?: (codes: string[]) => Promise<void>;
}

/**
 * The signed-in pages' code and the data pages' texts, fetched while the password is checked (about a quarter of a
 * second, by design) and the data read, so the dashboard shows as soon as its data is in rather than after a
 * second chain of chunks. The same modules as the router's lazy routes: each is fetched once either way. Failures
 * are left to the router.
 */
function prefetchDashboard(): void {
  const ignore = () => undefined;
  import('../../../app/layout/dashboard-layout').catch(ignore);
  import('../../dashboard/components/dashboard-home').catch(ignore);
  import('../../../lib/i18n/filing-namespace')
    .then(({ loadFilingNamespace }) => loadFilingNamespace(i18n.resolvedLanguage ?? i18n.language ?? 'en'))
    .catch(ignore);
}

type State = { status: 'idle' | 'pending' | 'success' } | { status: 'error'; error: unknown };

/**
 * Sign-in as a small state machine (idle, pending, success, error). The login sequence and the JSON:API query
 * builder are loaded on submit, not with the page, to keep the first load of /signin small.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ status: 'idle' });
  const mutate = useCallback(
    (v: SignInValues, cb: SignInCallbacks = {}) => {
      setState({ status: 'pending' });
      import('../api/login-sequence')
        .then(({ signInWithPassword }) => {
          const signedIn = signInWithPassword(v.username.trim(), v.password, v.remember, queryClient, v.factor, cb.onRecoveryCodes);
          // After the token request is on its way, so the chunks load during the password check, not before it.
          prefetchDashboard();
          return signedIn;
        })
        .then(
          (result) => {
            setState({ status: 'success' });
            cb.onSuccess?.(result);
          },
          (error: unknown) => {
            setState({ status: 'error', error });
            cb.onError?.(error);
          },
        )
        .finally(() => cb.onSettled?.());
    },
    [queryClient],
  );
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return {
    mutate,
    reset,
    isPending: state.status === 'pending',
    isError: state.status === 'error',
    error: state.status === 'error' ? state.error : null,
  };
}

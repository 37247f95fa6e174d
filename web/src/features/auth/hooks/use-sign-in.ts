import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { preloadSignedInPages } from '../../../lib/sign-in-preload';
import { addDashboardStyles } from '../../../lib/theme/dashboard-styles';
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

const loadLoginSequence = () => import('../api/login-sequence');

let warmedUp = false;

/**
 * Loads, once, what signing in needs before it is needed: the login sequence (token request, reads) and the
 * signed-in pages' code, texts and antd styles. Called on the first keystroke in the sign-in form, so that by the click
 * on "Sign in" nothing is left to fetch but the token and the data; never on a bare visit of /signin, whose first load
 * stays small. Called again on submit in case the form was filled without a keystroke (a password manager).
 */
export function warmUpSignIn(): void {
  if (warmedUp) return;
  warmedUp = true;
  loadLoginSequence().catch(() => {
    warmedUp = false;
  });
  preloadSignedInPages();
  addDashboardStyles();
}

type State = { status: 'idle' | 'pending' | 'success' } | { status: 'error'; error: unknown };

/**
 * Sign-in as a small state machine (idle, pending, success, error). The login sequence and the JSON:API query
 * builder are not part of the page's first load (warmUpSignIn).
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ status: 'idle' });
  const mutate = useCallback(
    (v: SignInValues, cb: SignInCallbacks = {}) => {
      setState({ status: 'pending' });
      loadLoginSequence()
        .then(({ signInWithPassword }) => {
          const signedIn = signInWithPassword(
            v.username.trim(),
            v.password,
            v.remember,
            queryClient,
            v.factor,
            cb.onRecoveryCodes,
          );
          // After the token request is on its way: what was not loaded yet then loads during the password check.
          warmUpSignIn();
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

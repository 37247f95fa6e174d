import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
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
        .then(({ signInWithPassword }) => signInWithPassword(v.username.trim(), v.password, v.remember, queryClient, v.factor, cb.onRecoveryCodes))
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

import { useMutation, useQueryClient } from '@tanstack/react-query';

export interface SignInValues {
  username: string;
  password: string;
  remember: boolean;
}

/** Sign-in; the login sequence (and the JSON:API query builder) is loaded on submit, not with the page. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: SignInValues) => {
      const { signInWithPassword } = await import('../api/login-sequence');
      return signInWithPassword(v.username.trim(), v.password, v.remember, queryClient);
    },
  });
}

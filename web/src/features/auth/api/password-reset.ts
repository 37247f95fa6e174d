import { publicApi } from '../../../lib/http/json';

/** POST /api/password-reset {email}: the server answers the same whether or not the address is known. */
export function requestPasswordReset(email: string): Promise<unknown> {
  return publicApi.post('/api/password-reset', { email });
}

/** POST /api/password-reset/confirm {token, password}: 204/200 on success, 400/422 for a bad or expired token. */
export function confirmPasswordReset(token: string, password: string): Promise<unknown> {
  return publicApi.post('/api/password-reset/confirm', { token, password });
}

/** POST /api/account/unlock {token}: the link mailed when wrong passwords held the account back; 204, or 400. */
export function unlockAccount(token: string): Promise<unknown> {
  return publicApi.post('/api/account/unlock', { token });
}

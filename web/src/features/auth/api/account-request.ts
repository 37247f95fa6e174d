import { publicApi } from '../../../lib/http/json';

export interface AccountRequest {
  name: string;
  email: string;
  username: string;
  password: string;
  handler_number: string;
}

/** POST /api/account-requests: 202 accepted (staff approve it), or 422 with one error per field (source.pointer). */
export function requestAccount(body: AccountRequest): Promise<unknown> {
  return publicApi.post('/api/account-requests', body);
}

import { api, publicApi } from '../../../lib/http/json';
import { jsonApi } from '../../../lib/jsonapi/client';
import type { Entity } from '../../../lib/jsonapi/deserialize';

export const fetchMe = (userId: string, signal?: AbortSignal) =>
  jsonApi.getOne(`/jsonapi/user/user/${encodeURIComponent(userId)}`, undefined, signal);

export interface ProfileValues {
  field_first_name: string;
  field_last_name: string;
  field_job_title: string | null;
  field_phone: string | null;
  field_show_in_directory: boolean;
}

export const patchMe = (user: Entity, values: ProfileValues): Promise<Entity> =>
  jsonApi.update('user--user', user.id, { ...values }, { changed: user.changed });

/** POST /api/account/password {current_password, new_password}, signed in. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await api.post('/api/account/password', { current_password: currentPassword, new_password: newPassword });
}

/**
 * POST /api/account/email {current_password, new_email}, signed in: the address changes only when the link mailed to
 * the new address is opened (confirm-email-page.tsx); the old address is told.
 */
export const requestEmailChange = (currentPassword: string, newEmail: string) =>
  api.post<{ email: string }>('/api/account/email', { current_password: currentPassword, new_email: newEmail });

/** POST /api/account/email/confirm {token}: the mailed link; needs no sign-in. */
export const confirmEmail = (token: string) =>
  publicApi.post<{ email: string }>('/api/account/email/confirm', { token });

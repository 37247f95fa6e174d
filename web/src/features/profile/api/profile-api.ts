import { queryOptions } from '@tanstack/react-query';
import { api, publicApi } from '../../../lib/http/json';
import { jsonApi } from '../../../lib/jsonapi/client';
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { queryKeys } from '../../../lib/query-keys';

export const fetchMe = (userId: string, signal?: AbortSignal) =>
  jsonApi.getOne(`/jsonapi/user/user/${encodeURIComponent(userId)}`, undefined, signal);

export const profileKeys = {
  /** The user's whole record (the editor's), under the signed-in user's key (lib/query-keys.ts: queryKeys.me). */
  full: (userId: string) => [...queryKeys.me, 'full', userId] as const,
};

export const fullProfileQuery = (userId: string) =>
  queryOptions({ queryKey: profileKeys.full(userId), queryFn: ({ signal }) => fetchMe(userId, signal) });

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

import type { EntityTypes } from '@pecan/contract/entities/generated';
import { queryOptions } from '@tanstack/react-query';
import { api, publicApi } from '../../../lib/http/json';
import { jsonApi } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';
import { queryKeys } from '../../../lib/query-keys';

/** The signed-in user's own record as the API sends it. */
export type User = ApiEntity<'user--user'>;

export const fetchMe = (userId: string, signal?: AbortSignal) =>
  jsonApi.getOne<User>(`/jsonapi/user/user/${encodeURIComponent(userId)}`, undefined, signal);

export const profileKeys = {
  /** The user's whole record (the editor's), under the signed-in user's key (lib/query-keys.ts: queryKeys.me). */
  full: (userId: string) => [...queryKeys.me, 'full', userId] as const,
};

export const fullProfileQuery = (userId: string) =>
  queryOptions({ queryKey: profileKeys.full(userId), queryFn: ({ signal }) => fetchMe(userId, signal) });

/** The fields the user edits, with the types the API has for them. */
export type ProfileValues = Pick<
  EntityTypes['user--user']['attributes'],
  'field_first_name' | 'field_last_name' | 'field_job_title' | 'field_phone' | 'field_show_in_directory'
>;

export const patchMe = (user: User, values: ProfileValues): Promise<User> =>
  jsonApi.update<User>('user--user', user.id, { ...values }, { changed: user.changed });

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

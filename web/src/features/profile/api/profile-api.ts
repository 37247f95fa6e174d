import { toApiError } from '../../../lib/http/errors';
import { jsonApi } from '../../../lib/jsonapi/client';
import { deserialize, type Entity } from '../../../lib/jsonapi/deserialize';
import { getAccessToken } from '../../../lib/session/session';

export const fetchMe = (userId: string, signal?: AbortSignal) =>
  jsonApi.getOne(`/jsonapi/user/user/${encodeURIComponent(userId)}`, undefined, signal);

export interface ProfileValues {
  field_first_name: string;
  field_last_name: string;
  field_job_title: string | null;
  field_phone: string | null;
  field_show_in_directory: boolean;
}

export async function patchMe(user: Entity, values: ProfileValues): Promise<Entity> {
  const doc = await jsonApi.request(`/jsonapi/user/user/${encodeURIComponent(user.id)}`, {
    method: 'PATCH',
    body: { data: { type: 'user--user', id: user.id, attributes: values, meta: { changed: user.changed } } },
  });
  const data = doc ? deserialize(doc) : null;
  if (!data || Array.isArray(data)) throw new Error('An error has occured.');
  return data;
}

/** POST /api/account/password {current_password, new_password}, signed in. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const token = await getAccessToken();
  const response = await fetch('/api/account/password', {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ current_password: currentPassword, new_password: newPassword }),
  });
  if (!response.ok) throw await toApiError(response);
}

/**
 * POST /api/account/email {current_password, new_email}, signed in: the address changes only when the link mailed to
 * the new address is opened (confirm-email-page.tsx); the old address is told.
 */
export async function requestEmailChange(currentPassword: string, newEmail: string): Promise<{ email: string }> {
  const token = await getAccessToken();
  const response = await fetch('/api/account/email', {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ current_password: currentPassword, new_email: newEmail }),
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as { email: string };
}

/** POST /api/account/email/confirm {token}: the mailed link; needs no sign-in. */
export async function confirmEmail(token: string): Promise<{ email: string }> {
  const response = await fetch('/api/account/email/confirm', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as { email: string };
}

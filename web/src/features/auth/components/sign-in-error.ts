import type { TFunction } from 'i18next';
import { ApiError } from '../../../lib/http/errors';
import { formatWait } from '../../../lib/i18n/format';

/** The message for a failed sign-in: 'Invalid Credentials' for bad credentials, the wait for 429, else the status. */
export function signInErrorMessage(error: unknown, t: TFunction, language: string): string {
  if (error instanceof ApiError) {
    if (error.status === 400 || error.status === 401) {
      const code = error.errors[0]?.code;
      if (!code || code === 'invalid_grant' || code === 'invalid_credentials') return t('signIn.invalid');
      if (code === 'account_pending') return t('signIn.pending');
    }
    if (error.status === 429) {
      return error.retryAfterSeconds
        ? t('signIn.tooMany', { wait: formatWait(error.retryAfterSeconds, language) })
        : t('signIn.tooManyNoWait');
    }
    return t('signIn.failed', { message: error.message });
  }
  return t('signIn.failed', { message: error instanceof Error ? error.message : String(error) });
}

import type { Db } from '../db/database.js';
import { invalidGrant, OAuthError } from './errors.js';
import { acceptTotp, completeEnrollment, hasFactor, startEnrollment, useRecoveryCode } from './mfa.js';
import type { Params } from './params.js';

/**
 * The second step of a staff password sign-in (docs/SECURITY.md, "Accounts and second factor"). Called once the
 * password is known to be right. Answers:
 * - `missing`: no code was sent; the error tells the client what to ask for (400 mfa_required, or 400
 *   mfa_enrollment_required with an `enrollment_token` for a user with no factor yet). Not a failed attempt.
 * - `wrong`: a code was sent and is not right (or replayed, or already used); a failed attempt for throttling.
 * - `ok`: signed in; `recoveryCodes` when this sign-in finished an enrolment (shown once).
 *
 * 400 follows RFC 6749 §5.2 (the default status of a token error) and the endpoint's other errors.
 */
export type SecondFactor = { kind: 'ok'; recoveryCodes?: string[] } | { kind: 'missing' | 'wrong'; error: OAuthError };

const WRONG_CODE = 'The authenticator code is not right, or was already used. Wait for the next code and try again.';
const WRONG_RECOVERY = 'The recovery code is not right, or was already used.';
const ENROLLMENT_ENDED = 'The set-up of the authenticator app has expired. Sign in again to start over.';

const wrong = (description: string): SecondFactor => ({ kind: 'wrong', error: invalidGrant(description) });

export async function checkSecondFactor(db: Db, params: Params, userId: string, now: Date): Promise<SecondFactor> {
  const totp = params('totp');
  const recovery = params('recovery_code');
  const enrollment = params('enrollment_token');
  if (!(await hasFactor(db, userId))) {
    if (enrollment !== undefined && totp !== undefined) {
      const outcome = await completeEnrollment(db, userId, enrollment, totp, now);
      if (outcome.ok) return { kind: 'ok', recoveryCodes: outcome.recoveryCodes };
      return wrong(outcome.reason === 'expired' ? ENROLLMENT_ENDED : WRONG_CODE);
    }
    const token = await startEnrollment(db, userId, now);
    return {
      kind: 'missing',
      error: new OAuthError(
        400,
        'mfa_enrollment_required',
        'Council staff need an authenticator app. Set it up with the enrolment token, then send its first code as totp.',
        {},
        { enrollment_token: token },
      ),
    };
  }
  if (totp !== undefined) return (await acceptTotp(db, userId, totp, now)) ? { kind: 'ok' } : wrong(WRONG_CODE);
  if (recovery !== undefined)
    return (await useRecoveryCode(db, userId, recovery, now)) ? { kind: 'ok' } : wrong(WRONG_RECOVERY);
  return {
    kind: 'missing',
    error: new OAuthError(
      400,
      'mfa_required',
      'Council staff sign in with a second factor: send the authenticator code as totp, or a recovery code as recovery_code.',
    ),
  };
}

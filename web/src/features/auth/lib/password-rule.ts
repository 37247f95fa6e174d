import { MIN_PASSWORD_LENGTH, passwordRuleBroken } from '@pecan/contract';
import type { FormRule } from 'antd';

/**
 * The shared password rule (contract/src/accounts/password.ts) as an antd form rule: sign-up and reset use it, the
 * profile's password card calls passwordRuleBroken itself. Counted in characters, as the server counts.
 */
export function passwordRule(t: (key: string, options: { n: number }) => string): FormRule {
  return {
    validator: (_rule, value: unknown) =>
      typeof value === 'string' && value !== '' && passwordRuleBroken(value) === 'tooShort'
        ? Promise.reject(new Error(t('signUp.passwordShort', { n: MIN_PASSWORD_LENGTH })))
        : Promise.resolve(),
  };
}

/**
 * The password rule, one for every place a password is chosen: sign-up, reset, the profile's change of password
 * and the server, which enforces it (server/src/users/passwords.ts). Lengths count characters (code points), not
 * UTF-16 units, so an emoji counts once.
 */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

export function passwordLength(plain: string): number {
  return [...plain].length;
}

/** Which part of the rule a password breaks, or null when it is acceptable. */
export function passwordRuleBroken(plain: string): 'tooShort' | 'tooLong' | 'blank' | null {
  const length = passwordLength(plain);
  if (length < MIN_PASSWORD_LENGTH) return 'tooShort';
  if (length > MAX_PASSWORD_LENGTH) return 'tooLong';
  if (plain.trim() === '') return 'blank';
  return null;
}

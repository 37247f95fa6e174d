import { describe, expect, test } from 'vitest';
import { MIN_PASSWORD_LENGTH, passwordRuleBroken } from './password';

describe('the one password rule', () => {
  test('ten characters are enough, nine are not', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(10);
    expect(passwordRuleBroken('a'.repeat(9))).toBe('tooShort');
    expect(passwordRuleBroken('a'.repeat(10))).toBeNull();
  });
  test('characters, not UTF-16 units: five emoji are five characters', () => {
    expect(passwordRuleBroken('🌰'.repeat(5))).toBe('tooShort');
    expect(passwordRuleBroken('🌰'.repeat(10))).toBeNull();
  });
  test('only spaces and more than 1024 characters are refused', () => {
    expect(passwordRuleBroken(' '.repeat(12))).toBe('blank');
    expect(passwordRuleBroken('a'.repeat(1025))).toBe('tooLong');
  });
});

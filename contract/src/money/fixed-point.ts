import { parsed, rejected, type ParseResult } from './parse-result.js';

/**
 * Fixed-point decimals as integers of 10^-places units (cents: places 2; ratios: places 4), parsed and formatted
 * on strings and BigInt only: "0.1" never goes through a float, so it is exactly 10 cents.
 */
const DECIMAL_PATTERN = /^(-?)(\d+)(?:\.(\d+))?$/;

export interface FixedPointRules {
  places: number;
  allowNegative: boolean;
  /** Largest magnitude allowed, in units. */
  maxUnits: bigint;
  /** How an example value looks, for messages ("1234.50"). */
  example: string;
}

export function parseFixedPoint(input: unknown, rules: FixedPointRules): ParseResult<bigint> {
  const shape = `a decimal string such as "${rules.example}"`;
  if (typeof input === 'number') return rejected(`must be ${shape}, not a number`);
  if (typeof input !== 'string') return rejected(`must be ${shape}`);
  const match = DECIMAL_PATTERN.exec(input);
  if (!match) return rejected(`must be ${shape} (digits and a decimal point only)`);
  const [, sign, whole, fraction = ''] = match;
  if (whole.length > 1 && whole.startsWith('0')) return rejected(`must be ${shape}, without leading zeros`);
  if (fraction.length > rules.places) return rejected(`must have at most ${rules.places} decimal places`);
  const magnitude = BigInt(whole + fraction.padEnd(rules.places, '0'));
  if (sign === '-' && magnitude !== 0n && !rules.allowNegative) return rejected('must not be negative');
  if (magnitude > rules.maxUnits) return rejected(`must be at most ${formatFixedPoint(rules.maxUnits, rules.places)}`);
  // "-0.00" is zero, never a negative zero.
  return parsed(sign === '-' ? -magnitude : magnitude);
}

export function formatFixedPoint(units: bigint | number, places: number): string {
  const value = BigInt(units);
  const digits = (value < 0n ? -value : value).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${value < 0n ? '-' : ''}${whole}${places > 0 ? '.' + fraction : ''}`;
}

/**
 * Exact decimals for money and ratios, on integers only. The contract workspace has the user-facing money
 * helpers; these two are the engine's own, kept tiny so the codecs do not depend on form rules.
 */
export function centsToDecimal(units: bigint, places: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(places);
  const whole = abs / scale;
  const frac = (abs % scale).toString().padStart(places, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

export function parseDecimalToUnits(text: string, places: number): bigint | null {
  const match = /^(-)?(\d{1,15})(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, frac = ''] = match;
  if (frac.length > places) return null;
  const units = BigInt(whole) * 10n ** BigInt(places) + BigInt(frac.padEnd(places, '0') || '0');
  return sign ? -units : units;
}

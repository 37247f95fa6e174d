/** Sums of whole pounds or cents; refuses anything that is not a safe integer so an error never hides in a float. */
export function sumIntegers(values: readonly (number | undefined | null)[]): number {
  const total = values.reduce<number>((acc, value) => acc + (value ?? 0), 0);
  if (!Number.isSafeInteger(total)) throw new RangeError('A sum of pounds or cents is not a safe integer');
  return total;
}

/** A field of a row, 0 when the row leaves it empty (a draft in progress). */
export const amountOf = <T>(row: T, key: keyof T): number => (row[key] as number | undefined | null) ?? 0;

/** The column totals of a list of rows. */
export function totalOf<T>(rows: readonly T[], key: keyof T): number {
  return sumIntegers(rows.map((row) => amountOf(row, key)));
}

import { z } from 'zod';

/**
 * Form 3 lists each country once: a second row for the same country would split one month's exports to it in two
 * (and the council's reports count countries). The web form says so at the row as the user picks the country; the
 * server refuses such a row with 422.
 */
export const DUPLICATE_EXPORT_COUNTRY = 'This country already has a row on this form: add the pounds to that row.';

/** Indexes of the rows whose country an earlier row already has (empty countries are not compared). */
export function duplicateCountryRows(countries: readonly (string | null | undefined)[]): number[] {
  const seen = new Set<string>();
  const dupes: number[] = [];
  countries.forEach((c, i) => {
    const code = (c ?? '').trim().toUpperCase();
    if (!code) return;
    if (seen.has(code)) dupes.push(i);
    seen.add(code);
  });
  return dupes;
}

/** Form 3's rows as a list: valid when no country appears twice. */
export const exportCountriesSchema = z.array(z.object({ country: z.string().nullish() })).superRefine((rows, ctx) => {
  for (const i of duplicateCountryRows(rows.map((r) => r.country)))
    ctx.addIssue({ code: 'custom', path: [i, 'country'], message: DUPLICATE_EXPORT_COUNTRY });
});

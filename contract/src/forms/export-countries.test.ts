import { describe, expect, test } from 'vitest';
import { duplicateCountryRows, exportCountriesSchema } from './export-countries';

describe('form 3 lists each country once', () => {
  test('the second row of a country is the duplicate, case and spaces aside; empty rows are not compared', () => {
    expect(duplicateCountryRows(['MX', 'CA', 'mx ', null, '', 'CA'])).toEqual([2, 5]);
    expect(duplicateCountryRows(['MX', 'CA', null, null])).toEqual([]);
  });
  test('the schema points at the duplicate row', () => {
    const result = exportCountriesSchema.safeParse([{ country: 'MX' }, { country: 'MX' }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([1, 'country']);
    expect(exportCountriesSchema.safeParse([{ country: 'MX' }, { country: 'CN' }]).success).toBe(true);
  });
});

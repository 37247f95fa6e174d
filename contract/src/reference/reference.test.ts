import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, countryOptions, isCountryCode } from './countries.js';
import { DEFAULT_VARIETIES, OTHER_VARIETY, varietyKey, varietyListWithOther } from './varieties.js';

describe('countries', () => {
  it('are the ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.length).toBeGreaterThanOrEqual(249);
    expect(COUNTRY_CODES).toContain('MX');
    expect(isCountryCode('CN')).toBe(true);
    expect(isCountryCode('UK')).toBe(false);
    expect(isCountryCode('mx')).toBe(false);
    expect(isCountryCode('MEX')).toBe(false);
  });

  it('have names in the portal languages', () => {
    expect(countryName('MX')).toBe('Mexico');
    expect(countryName('MX', 'es')).toBe('México');
    expect(countryName('CN', 'zh')).toBe('中国');
    expect(countryName('DE', 'fr')).toBe('Allemagne');
    expect(countryName('DE', 'it')).toBe('Germania');
    expect(countryName('DE', 'ar')).toBe('ألمانيا');
    expect(countryName('ZZ')).toBeUndefined();
  });

  it('come as sorted options for a select box', () => {
    const options = countryOptions('en');
    expect(options).toHaveLength(COUNTRY_CODES.length);
    expect(options[0].name).toBe('Afghanistan');
    expect(options.every((option) => option.name.length > 0)).toBe(true);
  });
});

describe('varieties', () => {
  it('default to thirty names ending with Other', () => {
    expect(DEFAULT_VARIETIES).toHaveLength(30);
    expect(DEFAULT_VARIETIES[0]).toBe('Desirable');
    expect(DEFAULT_VARIETIES.at(-1)).toBe(OTHER_VARIETY);
  });

  it('always offer Other, last, with no duplicates', () => {
    expect(varietyListWithOther(['Pawnee', ' pawnee ', 'other', 'Cape  Fear', ''])).toEqual([
      'Pawnee',
      'Cape Fear',
      'Other',
    ]);
    expect(varietyListWithOther([])).toEqual(['Other']);
    expect(varietyListWithOther(DEFAULT_VARIETIES)).toEqual(DEFAULT_VARIETIES);
  });

  it('compare names ignoring case and spaces', () => {
    expect(varietyKey('  Western   Schley ')).toBe(varietyKey('western schley'));
  });
});

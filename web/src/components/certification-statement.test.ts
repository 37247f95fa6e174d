import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CERTIFICATION_STATEMENT_TEMPLATE } from '@pecan/contract';
import { describe, expect, it } from 'vitest';

/**
 * One certification statement for forms 1 to 5: the web shows common:certification.statement, the server's PDFs
 * print the contract's English text. They are the same words, and no feature keeps a statement of its own.
 */
const locales = join(__dirname, '..', 'locales');
const languages = readdirSync(locales, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const read = (lang: string, file: string) =>
  JSON.parse(readFileSync(join(locales, lang, `${file}.json`), 'utf8')) as Record<string, Record<string, unknown>>;

describe('the certification statement', () => {
  it('is on screen in English word for word what the PDFs print', () => {
    expect(read('en', 'common').certification.statement).toBe(CERTIFICATION_STATEMENT_TEMPLATE);
  });

  it('is translated in every language with the company name inside the sentence', () => {
    expect(languages.length).toBeGreaterThanOrEqual(6);
    for (const lang of languages) {
      const c = read(lang, 'common').certification as Record<string, string>;
      for (const key of ['title', 'statement', 'attest', 'attestRequired', 'name', 'nameRequired', 'jobTitle'])
        expect(c[key], `${lang} ${key}`).toBeTruthy();
      expect(c.statement, lang).toContain('{{handler}}');
      // "Riverbend Pecan Co." ends in a period: the name never closes the sentence.
      expect(c.statement, lang).not.toMatch(/\{\{handler\}\}[.。]$/);
    }
  });

  it('has no second wording left in a feature of any language', () => {
    for (const lang of languages) {
      expect(read(lang, 'filing').certify.statement, lang).toBeUndefined();
      expect(read(lang, 'yearEnd').cert.statement, lang).toBeUndefined();
      expect(read(lang, 'yearEnd').cert.attest, lang).toBeUndefined();
      expect(read(lang, 'transfers').attest, lang).toBeUndefined();
    }
  });
});

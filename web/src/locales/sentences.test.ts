import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Company names often end in a period ("Riverbend Pecan Co."): a sentence that ends on one printed
 * "filed by Riverbend Pecan Co.." A text never puts its own period right after a company name.
 */
const COMPANY_PLACEHOLDERS = /\{\{(from|company|receiver|transferring|handlerName)\}\}[.。]/;

function strings(value: unknown, path: string): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
  return [];
}

describe('translations', () => {
  const root = __dirname;
  const languages = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
  it('never end a sentence right after a company name', () => {
    const found: string[] = [];
    for (const lang of languages)
      for (const file of readdirSync(join(root, lang.name)).filter((f) => f.endsWith('.json'))) {
        const texts = strings(JSON.parse(readFileSync(join(root, lang.name, file), 'utf8')), '');
        for (const [key, text] of texts) if (COMPANY_PLACEHOLDERS.test(text)) found.push(`${lang.name}/${file} ${key}`);
      }
    expect(languages.length).toBeGreaterThanOrEqual(6);
    expect(found).toEqual([]);
  });
});

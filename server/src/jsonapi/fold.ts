import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/dialect.js';

/**
 * The fold that makes STARTS_WITH, CONTAINS and ENDS_WITH case- and accent-insensitive: every accented Latin
 * letter whose compatibility decomposition is one ASCII letter and marks (é, Ç, ñ, Å, ő, ž ...) becomes that
 * letter in lower case, then the text is lowered. Ligatures and letters of their own (æ, ß, ø, ł) stay as they are,
 * as in Unicode's decomposition. The table is the same on both databases: SQLite runs `fold` as a SQL function
 * (registered on every connection), PostgreSQL runs `lower(translate(x, FROM, TO))`, built in, without the unaccent
 * extension (which a hosted database may not offer).
 */
function table(): { from: string; to: string } {
  let from = '';
  let to = '';
  // Latin-1 Supplement, Latin Extended-A and B: where the accented letters of European languages are.
  for (let cp = 0xc0; cp <= 0x24f; cp += 1) {
    const ch = String.fromCodePoint(cp);
    const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
    if (/^[A-Za-z]$/.test(base)) {
      from += ch;
      to += base.toLowerCase();
    }
  }
  return { from, to };
}

export const FOLD = table();
const map = new Map([...FOLD.from].map((ch, i) => [ch, FOLD.to[i]]));

/** The fold in JavaScript: what SQLite's `portal_fold(x)` returns. */
export function fold(text: string): string {
  let out = '';
  for (const ch of text) out += map.get(ch) ?? ch;
  return out.toLowerCase();
}

/** Name of the SQL function on SQLite connections (database.ts registers it). */
export const SQLITE_FOLD_FUNCTION = 'portal_fold';

/** The fold of a SQL expression, in the dialect's terms. */
export function foldSql(dialect: Dialect, expression: RawBuilder<unknown>): RawBuilder<unknown> {
  if (dialect === 'sqlite') return sql`${sql.raw(SQLITE_FOLD_FUNCTION)}(${expression})`;
  return sql`lower(translate(${expression}, ${sql.lit(FOLD.from)}, ${sql.lit(FOLD.to)}))`;
}

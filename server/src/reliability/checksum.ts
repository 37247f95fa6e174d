import { createHash } from 'node:crypto';
import type { Db, Dialect } from '../db/database.js';
import { listTables } from '../db/tables.js';

/**
 * One value in a form that is the same on both databases: booleans (SQLite keeps 0/1) as 0/1, bigints and numbers
 * as decimal text, binary content as its SHA-256.
 */
function canonical(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Uint8Array) return `sha256:${createHash('sha256').update(value).digest('hex')}`;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** A row as one line of text: its columns in name order, each canonical. */
function rowText(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(row)
      .sort()
      .map((k) => [k, canonical(row[k])]),
  );
}

/** The key rows are ordered by: the id where the table has one, otherwise the whole row. */
function orderKey(row: Record<string, unknown>, text: string): string {
  return row.id !== undefined ? `${String(row.id)}\u0000${text}` : text;
}

export type Checksum = Record<string, string>;

/**
 * Per table: the row count and a SHA-256 of every row, ordered by id (in code-unit order, computed here rather than
 * by the database, whose collations differ). Equal checksums mean equal data; it runs on SQLite and PostgreSQL alike.
 * `exclude` leaves tables out (e.g. sign-in throttling rows, which a refused sign-in writes on purpose).
 */
export async function databaseChecksum(
  db: Db,
  dialect: Dialect,
  options: { exclude?: string[] } = {},
): Promise<Checksum> {
  const out: Checksum = {};
  for (const table of await listTables(db, dialect)) {
    if (options.exclude?.includes(table)) continue;
    const rows = (await db.selectFrom(table).selectAll().execute()) as Array<Record<string, unknown>>;
    const lines = rows.map((r) => {
      const text = rowText(r);
      return [orderKey(r, text), text] as const;
    });
    lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const hash = createHash('sha256');
    for (const [, text] of lines) hash.update(text).update('\n');
    out[table] = `${rows.length}:${hash.digest('hex')}`;
  }
  return out;
}

/** The tables whose checksums differ, with both values: an empty object when nothing changed. */
export function checksumDiff(
  before: Checksum,
  after: Checksum,
): Record<string, [string | undefined, string | undefined]> {
  const diff: Record<string, [string | undefined, string | undefined]> = {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[table] !== after[table]) diff[table] = [before[table], after[table]];
  }
  return diff;
}

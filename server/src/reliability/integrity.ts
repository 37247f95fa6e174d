import { sql } from 'kysely';
import type { Db, Dialect } from '../db/database.js';

/**
 * The database's own consistency checks, as a list of problems (empty: all good). SQLite: `PRAGMA integrity_check`
 * and `PRAGMA foreign_key_check`. PostgreSQL: every foreign key of the current schema holds (a query per key; the
 * database enforces them, this proves nothing slipped past, e.g. after a restore).
 */
export async function integrityProblems(db: Db, dialect: Dialect): Promise<string[]> {
  const problems: string[] = [];
  if (dialect === 'sqlite') {
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    for (const r of integrity.rows)
      if (r.integrity_check !== 'ok') problems.push(`integrity_check: ${r.integrity_check}`);
    const fk = await sql<{ table: string; rowid: number; parent: string }>`pragma foreign_key_check`.execute(db);
    for (const r of fk.rows) problems.push(`foreign key: ${r.table} row ${r.rowid} points at a missing ${r.parent}`);
    return problems;
  }
  for (const key of await foreignKeys(db)) {
    const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(key.table)} c
      where c.${sql.ref(key.column)} is not null
        and not exists (select 1 from ${sql.table(key.refTable)} p where p.${sql.ref(key.refColumn)} = c.${sql.ref(key.column)})`.execute(
      db,
    );
    const n = Number(r.rows[0].n);
    if (n > 0)
      problems.push(`foreign key: ${n} row(s) of ${key.table}.${key.column} point at a missing ${key.refTable}`);
  }
  return problems;
}

export interface ForeignKey {
  table: string;
  column: string;
  refTable: string;
  refColumn: string;
}

/** The single-column foreign keys of the current PostgreSQL schema (all of the portal's are). */
export async function foreignKeys(db: Db): Promise<ForeignKey[]> {
  const r = await sql<ForeignKey>`
    select kcu.table_name as "table", kcu.column_name as "column", ccu.table_name as "refTable", ccu.column_name as "refColumn"
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
    join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
    where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()
    order by 1, 2`.execute(db);
  return r.rows;
}

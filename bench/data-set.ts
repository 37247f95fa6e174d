import pg from 'pg';
import SQLite from 'better-sqlite3';

/**
 * A generated data set (bench/generate.ts) as the benchmarks use it: the users, drafts and dates their requests
 * name, and a copy of a PostgreSQL data set to write into (bench/run.ts, bench/ablation.ts).
 */
export interface DataSet {
  dialect: 'sqlite' | 'postgres';
  url: string;
  schema?: string;
}

/**
 * What the scenarios need from the data set: users with their handler, the current season, the drafts of the open
 * month.
 */
export interface Fixture {
  users: Array<{ name: string; handlerId: string }>;
  seasonId: string;
  /** The due date of the newest period with packages: its form page's Next package is the one before. */
  newestDueDate: string;
  drafts: Array<{ bundle: string; id: string; handlerId: string }>;
}

export async function query(t: DataSet, text: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  if (t.dialect === 'sqlite') {
    const db = new SQLite(t.url.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(text).all(...params) as Array<Record<string, unknown>>;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: t.url, options: `-c search_path=${t.schema}` });
  await client.connect();
  try {
    let n = 0;
    return (
      await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows;
  } finally {
    await client.end();
  }
}

export async function fixture(t: DataSet): Promise<Fixture> {
  const users = (await query(
    t,
    `select name, handler_id as "handlerId" from users where name like 'bench-1%' and status = 'active' order by name`,
  )) as Fixture['users'];
  const season = await query(t, `select id from seasons where current_season = ${t.dialect === 'sqlite' ? 1 : 'true'}`);
  const drafts: Fixture['drafts'] = [];
  for (const bundle of ['apc_form_1', 'apc_form_2', 'apc_form_3']) {
    const rows = await query(
      t,
      `select f.id, f.handler_id as "handlerId" from ${bundle} f join reporting_periods p on p.id = f.period_id
      where f.form_status = 'draft' and f.amendment_number = 0 and p.period_month = (select max(period_month) from reporting_periods) order by f.handler_id`,
    );
    drafts.push(...rows.map((r) => ({ bundle, id: String(r.id), handlerId: String(r.handlerId) })));
  }
  const newest = await query(
    t,
    'select max(p.due_date) as "dueDate" from reporting_forms_packages k join reporting_periods p on p.id = k.period_id',
  );
  return { users, seasonId: String(season[0].id), newestDueDate: String(newest[0].dueDate), drafts };
}

/**
 * A copy of a PostgreSQL data set's schema, as SQLite's is run on a copy of its file: the writes (edits,
 * certifications, sign-ins) must leave the generated data set as it was, or a second run finds no drafts left to
 * edit. Tables with their columns, defaults, keys and indexes (LIKE ... INCLUDING ALL), rows, then the foreign keys.
 */
export async function copyPgSchema(url: string, from: string, to: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (
      await client.query(
        `select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
        [from],
      )
    ).rows.map((r) => r.table_name as string);
    // Referenced tables named as the source schema sees them (unqualified), to be made again inside the copy.
    await client.query(`set search_path = ${pgIdent(from)}`);
    const foreignKeys = (
      await client.query(
        `select c.conrelid::regclass::text as table_name, c.conname, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = $1 and c.contype = 'f'`,
        [from],
      )
    ).rows;
    await client.query(`drop schema if exists ${pgIdent(to)} cascade`);
    await client.query(`create schema ${pgIdent(to)}`);
    await client.query(`set search_path = ${pgIdent(to)}`);
    for (const table of tables) {
      await client.query(`create table ${pgIdent(table)} (like ${pgIdent(from)}.${pgIdent(table)} including all)`);
      await client.query(`insert into ${pgIdent(table)} select * from ${pgIdent(from)}.${pgIdent(table)}`);
    }
    for (const fk of foreignKeys)
      await client.query(`alter table ${fk.table_name} add constraint ${pgIdent(fk.conname)} ${fk.definition}`);
    // Functions and triggers (the data version's, the audit log's): LIKE copies neither. Their definitions name the
    // source schema's objects qualified: put the copy's name in.
    const qualified = new RegExp(`\\b${from}\\.`, 'g');
    const functions = (
      await client.query(
        `select pg_get_functiondef(p.oid) as definition from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
        [from],
      )
    ).rows;
    const triggers = (
      await client.query(
        `select pg_get_triggerdef(t.oid) as definition from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and not t.tgisinternal`,
        [from],
      )
    ).rows;
    for (const row of [...functions, ...triggers])
      await client.query(String(row.definition).replace(qualified, `${to}.`));
    await client.query('analyze');
    return to;
  } finally {
    await client.end();
  }
}

export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${pgIdent(schema)} cascade`);
  } finally {
    await client.end();
  }
}

export const pgIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

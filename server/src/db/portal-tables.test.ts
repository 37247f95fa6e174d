import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, describeEachDatabase, type TestContext } from '../test-support/databases.js';
import { PORTAL_COLUMNS } from './portal-columns.js';
import type { PortalTableName } from './portal-tables.js';
import { listTables } from './tables.js';

/**
 * PORTAL_COLUMNS (db/portal-columns.ts, which the compiler holds to the interfaces of portal-tables.ts) against the
 * schema the migrations make, on both databases: a migration that adds, drops or changes a column fails here until
 * the interfaces follow.
 */
/** The kind of each column as the database declares it, `?` when it admits null. */
async function columnsOf(ctx: TestContext, table: string): Promise<Record<string, string>> {
  if (ctx.dialect === 'sqlite') {
    const rows = await sql<{ name: string; type: string; notnull: number; pk: number }>`
      select name, type, "notnull", pk from pragma_table_info(${table})`.execute(ctx.db);
    return Object.fromEntries(rows.rows.map((r) => [r.name, kindOf(r.type) + (r.notnull || r.pk ? '' : '?')]));
  }
  const rows = await sql<{ name: string; type: string; nullable: string }>`
    select column_name as name, data_type as type, is_nullable as nullable from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(ctx.db);
  return Object.fromEntries(rows.rows.map((r) => [r.name, kindOf(r.type) + (r.nullable === 'YES' ? '?' : '')]));
}

const KINDS: Record<string, string> = {
  text: 'text',
  bigint: 'number',
  integer: 'number',
  boolean: 'boolean',
  blob: 'bytes',
  bytea: 'bytes',
};
const kindOf = (declared: string): string => KINDS[declared.toLowerCase()] ?? declared;

describeEachDatabase('the typed tables (db/portal-tables.ts)', (target) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(target);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('are the tables and columns the migrations make, of the same kinds and nullability', async () => {
    const tables = (await listTables(ctx.db)).filter((t) => !t.startsWith('kysely_'));
    expect(tables).toEqual(Object.keys(PORTAL_COLUMNS).sort());
    for (const table of tables) {
      expect(await columnsOf(ctx, table), table).toEqual(PORTAL_COLUMNS[table as PortalTableName]);
    }
  });
});

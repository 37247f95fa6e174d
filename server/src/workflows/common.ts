import { createHash } from 'node:crypto';
import type { Selectable, SqlBool } from 'kysely';
import { isStaff, type AppContext, type Viewer } from '../context.js';
import type { Db } from '../db/database.js';
import { portalDb, type PortalDb, type PortalTableName, type PortalTables } from '../db/portal-tables.js';
import { ApiError, conflict, forbidden } from '../lib/errors.js';
import { isoTimestamp, newId } from '../lib/time.js';
import type { Row } from '../jsonapi/resource.js';
import { recordAudit, type AuditEntry } from '../audit/log.js';

/**
 * What a workflow step needs: the app context (its `db` may be a transaction) and who acts. Workflows are called
 * by the API's write handlers, by the demo data loader and by the operators' CLI alike, so a demo filing goes
 * through exactly the code a real one does.
 */
export interface Actor {
  ctx: AppContext;
  viewer: Viewer;
}

/** The database with the portal's tables typed, for the workflows' own statements. */
export const dbOf = (a: Actor): PortalDb => portalDb(a.ctx.db);
/**
 * The same database untyped, for the helpers below that work on any table the caller names (the JSON:API write
 * handlers pass a resource's table and its decoded row): like the engine, their SQL is the same for every table.
 */
export const rowsDbOf = (a: Actor): Db => a.ctx.db;
export const nowIso = (a: Actor): string => isoTimestamp(a.ctx.clock.now());
export const todayOf = (a: Actor): string => nowIso(a).slice(0, 10);

/** Handler users act for their own company only; staff for any. */
export function assertOwnHandler(viewer: Viewer, handlerId: unknown, what: string): void {
  if (isStaff(viewer)) return;
  if (!viewer.handlerId || viewer.handlerId !== handlerId)
    throw forbidden(`You can only change ${what} of your own company.`);
}

export function assertStaff(viewer: Viewer, what: string): void {
  if (!isStaff(viewer)) throw forbidden(`Only council staff can ${what}.`);
}

export function assertDraft(row: Row, what = 'This form'): void {
  if (row.form_status !== 'draft')
    throw conflict(`${what} is ${String(row.form_status)} and can no longer change: amend it instead.`);
}

/**
 * Optimistic concurrency: a write that carries the `changed` it last saw in `meta` loses with 409 when someone
 * wrote in between. The UPDATE itself also checks `changed`, so two writers racing past the first check cannot
 * both win.
 */
export function assertNotStale(row: Row, meta: Record<string, unknown>): void {
  if (meta.changed !== undefined && meta.changed !== row.changed) {
    throw conflict(
      'Someone else saved this record after you opened it. Reload it to see their changes, then save again.',
    );
  }
}

export async function updateRow(a: Actor, table: string, row: Row, values: Row): Promise<string> {
  let changed = nowIso(a);
  // `changed` must move on every write, even two in one second, or a stale copy would look fresh.
  if (changed <= String(row.changed)) changed = isoTimestamp(new Date(new Date(String(row.changed)).getTime() + 1000));
  const result = await rowsDbOf(a)
    .updateTable(table)
    .set({ ...values, changed })
    .where('id', '=', row.id as string)
    .where('changed', '=', row.changed as string)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1)
    throw conflict('Someone else saved this record at the same moment. Reload it and save again.');
  await audit(a, {
    type: table,
    id: String(row.id),
    action: 'update',
    before: row,
    after: { ...row, ...values, changed },
  });
  return changed;
}

export async function insertNode(a: Actor, table: string, values: Row, id: string = newId()): Promise<string> {
  const now = nowIso(a);
  const row = { title: '', ...values, id, created: now, changed: now };
  await rowsDbOf(a).insertInto(table).values(row).execute();
  await audit(a, { type: table, id, action: 'create', before: null, after: row });
  return id;
}

/** Deletes one row (only draft sub-records are ever deleted); the audit log keeps what it held. */
export async function deleteRow(a: Actor, table: string, row: Row): Promise<void> {
  await rowsDbOf(a)
    .deleteFrom(table)
    .where('id', '=', row.id as string)
    .execute();
  await audit(a, { type: table, id: String(row.id), action: 'delete', before: row, after: null });
}

/**
 * The audit hook: every write of the workflows lands here, in the write's own transaction, with the acting user.
 * insertNode, updateRow, deleteRow and storeFile call it; the few direct updates call it themselves.
 */
export async function audit(a: Actor, entry: AuditEntry): Promise<void> {
  await recordAudit(dbOf(a), a.ctx.clock, a.viewer, entry);
}

/** A row of a portal table as the drivers return it (for a union of tables, a row of one of them). */
export type RowOf<T extends PortalTableName> = T extends PortalTableName ? Selectable<PortalTables[T]> : never;

/** One row by id, or 404. A table the caller names in the code gives its typed row; a resource's table, a `Row`. */
export async function loadRow<T extends PortalTableName>(db: Db, table: T, id: unknown): Promise<RowOf<T>>;
export async function loadRow(db: Db, table: string, id: unknown): Promise<Row>;
export async function loadRow(db: Db, table: string, id: unknown): Promise<Row> {
  const row = await db
    .selectFrom(table)
    .selectAll()
    .where('id', '=', id as string)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, `There is no ${table} record ${String(id)}.`);
  return row as Row;
}

/** Stores a rendered document; it is readable by whoever may read its owner. */
export async function storeFile(
  a: Actor,
  owner: { type: string; id: string },
  filename: string,
  mime: string,
  content: Uint8Array,
): Promise<string> {
  const id = newId();
  const meta = {
    id,
    filename,
    filemime: mime,
    filesize: content.byteLength,
    owner_type: owner.type,
    owner_id: owner.id,
    sha256: createHash('sha256').update(content).digest('hex'),
    created: nowIso(a),
  };
  await dbOf(a)
    .insertInto('files')
    .values({ ...meta, content: Buffer.from(content) })
    .execute();
  await audit(a, { type: 'files', id, action: 'create', before: null, after: meta });
  return id;
}

/** SQLite stores booleans as 0/1; PostgreSQL as booleans. */
export const dbBool = (a: Actor, value: boolean): SqlBool => (a.ctx.dialect === 'sqlite' ? (value ? 1 : 0) : value);
export const isTrue = (value: unknown): boolean => value === true || value === 1 || value === '1';

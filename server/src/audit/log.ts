import { randomBytes } from 'node:crypto';
import type { Viewer } from '../context.js';
import type { Db } from '../db/database.js';
import { isoTimestamp, type Clock } from '../lib/time.js';

/**
 * The audit log: every write, with who, when, what and the values before and after. Written in the same
 * transaction as the change it records (so a rolled-back write leaves no entry, and a committed one always has
 * its entry), from the few places every write goes through: workflows/common.ts insertNode, updateRow, deleteRow
 * and storeFile, plus the handful of direct updates (certification, supersession, current season, account
 * decisions, password changes) that call `audit` themselves.
 *
 * Entries are never changed: there is no endpoint for it, and the database refuses UPDATE and DELETE of audit_log
 * (migration 004).
 */
export type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'certify'
  | 'supersede'
  | 'set_current'
  | 'approve'
  | 'refuse'
  | 'password_change'
  | 'password_reset_sent'
  | 'mfa_reset'
  | 'email_change_requested'
  | 'email_confirmed'
  | 'close'
  | 'reopen'
  // API clients (api-clients/): a new secret, a client ended.
  | 'rotate_secret'
  | 'revoke'
  // Staff home (council/staff-home.ts): a reminder sent now to one handler.
  | 'remind';

export interface AuditEntry {
  /** The table written (`apc_form_1`, `users`, ...). */
  type: string;
  id: string;
  action: AuditAction;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * Who acted: a signed-in user, an API client (entered under its name with the role `api_client`, its id as the
 * actor id), or nobody (a self-service sign-up, a password-reset link).
 */
export type AuditActor = Pick<Viewer, 'userId' | 'name' | 'role' | 'client'> | null;

/** Never stored: secrets and file bodies. */
const SECRET_COLUMNS = new Set(['pass_hash', 'content', 'secret_hash', 'token_hash', 'previous_secret_hash']);

/** The values as stored in the log: secrets and binary data left out, bigints as text. */
export function auditValues(values: Record<string, unknown> | null | undefined): string | null {
  if (!values) return null;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (SECRET_COLUMNS.has(key)) continue;
    if (value instanceof Uint8Array) continue;
    kept[key] = typeof value === 'bigint' ? value.toString() : value;
  }
  return JSON.stringify(kept);
}

/** The handler company an entry concerns, so staff can search the log by handler. */
function handlerOf(
  type: string,
  id: string,
  ...rows: Array<Record<string, unknown> | null | undefined>
): string | null {
  if (type === 'handlers') return id;
  for (const row of rows) {
    if (!row) continue;
    const h = row.handler_id ?? row.transferring_handler_id;
    if (typeof h === 'string' && h !== '') return h;
  }
  return null;
}

/**
 * Ids that sort in the order entries were written (a millisecond time stamp, a per-process counter, random bits),
 * so entries made in the same second still list in order.
 */
let lastMs = 0;
let counter = 0;

/**
 * Eight random bytes as hex, drawn from a pool filled 4 KB at a time (as crypto.randomUUID does): a randomBytes call
 * of its own for every entry was 5 % of the main thread's time in a bulk load (bench/generate.ts).
 */
let randomPool = Buffer.alloc(0);
let randomAt = 0;
function randomHex8(): string {
  if (randomAt + 8 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomAt = 0;
  }
  randomAt += 8;
  return randomPool.toString('hex', randomAt - 8, randomAt);
}

export function auditId(): string {
  const ms = Date.now();
  if (ms === lastMs) counter += 1;
  else {
    lastMs = ms;
    counter = 0;
  }
  const hex = ms.toString(16).padStart(12, '0') + (counter & 0xffff).toString(16).padStart(4, '0') + randomHex8();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Records one write; `db` is the transaction of the write itself. */
export async function recordAudit(db: Db, clock: Clock, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: auditId(),
      occurred_at: isoTimestamp(clock.now()),
      actor_id: actor?.userId ?? null,
      actor_name: actor?.name ?? null,
      actor_role: actor?.client ? 'api_client' : (actor?.role ?? null),
      entity_type: entry.type,
      entity_id: entry.id,
      action: entry.action,
      handler_id: handlerOf(entry.type, entry.id, entry.after, entry.before),
      before_values: auditValues(entry.before),
      after_values: auditValues(entry.after),
    })
    .execute();
}

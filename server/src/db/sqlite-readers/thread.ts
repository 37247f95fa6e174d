import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, withStatementCache } from '../sqlite-connection.js';

/**
 * A reader thread (pool.ts): its own read-only connection to the database file (WAL lets it read beside the
 * server's connection, which writes), one statement at a time, rows sent back as plain objects. It blocks only itself
 * while a statement runs; the pool ends it when a statement outruns the time budget.
 */
export interface ReaderRequest {
  sql: string;
  parameters: readonly unknown[];
}
export type ReaderAnswer =
  { ready: true } | { rows: Array<Record<string, unknown>> } | { error: { message: string; code?: string } };

const { path, rowBuilders } = workerData as { path: string; rowBuilders: boolean };

/**
 * The lowest scheduling priority for this thread alone (Linux: its thread id, from /proc/thread-self): when the cores
 * are all busy, the event loop and every other request go first, and the costly read takes what is left.
 */
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
} catch {
  // Elsewhere, the thread runs at the process's priority.
}
const statements = withStatementCache(openSqlite(path, { readonly: true }), { rowBuilders });

parentPort!.on('message', ({ sql, parameters }: ReaderRequest) => {
  let answer: ReaderAnswer;
  try {
    const statement = statements.prepare(sql);
    // Only reads come here; a statement that would write is refused by the read-only connection anyway.
    if (!statement.reader)
      throw Object.assign(new Error('A reader thread runs reads only.'), { code: 'SQLITE_READONLY' });
    answer = { rows: statement.all(parameters) as Array<Record<string, unknown>> };
  } catch (e) {
    const error = e as { message?: string; code?: string };
    answer = { error: { message: String(error.message ?? e), code: error.code } };
  }
  parentPort!.postMessage(answer);
});
// Statements are sent once the connection is open: starting is not counted against a statement's budget.
parentPort!.postMessage({ ready: true } satisfies ReaderAnswer);

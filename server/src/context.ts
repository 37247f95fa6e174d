import type { Config } from './config/config.js';
import type { Db, Dialect } from './db/database.js';
import type { Clock } from './lib/time.js';

/** What every route and workflow needs, built once per process and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  /** SQLite on a file: where the costly reads run, on reader threads under the time budget (db/sqlite-readers/). */
  costlyReads?: Db;
  dialect: Dialect;
  clock: Clock;
  /** Signs file download links; the same on every replica (see files/signing.ts). */
  fileLinkSecret: string;
}

/** Who is asking. Set by the bearer check on every /jsonapi request. */
export interface Viewer {
  userId: string;
  name: string;
  role: 'handler' | 'staff';
  /** The handler company of a handler user; null for staff. */
  handlerId: string | null;
}

export const isStaff = (viewer: Viewer): boolean => viewer.role === 'staff';

import type { Config } from './config/config.js';
import type { Db, Dialect } from './db/database.js';
import type { Clock } from './lib/time.js';
import type { PdfThreads } from './render/pdf-threads.js';

/** What every route and workflow needs, built once per process and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  /** Where the costly reads run, a few at once under the time budget (decision 0009; `Database.costlyReads`). */
  costlyReads?: Db;
  /**
   * SQLite on a file with the `reads-beside-writes` mechanism: whether the server's connection is inside a write
   * transaction now (`Database.writerBusy`), so that a read goes to `costlyReads` rather than wait for its end.
   */
  writerBusy?(): boolean;
  /**
   * Where the PDFs are rendered (the `pdf-threads` mechanism; made by startPortal, closed with it); unset (the CLI,
   * the bench's generator), in the calling thread.
   */
  pdfThreads?: PdfThreads;
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
  /**
   * Set when an API client acts (docs/API-CLIENTS.md): a service user of its handler (`role` handler, `handlerId`
   * its handler, `userId` and `name` the client's id and name), never staff. `write`: its scope includes write.
   */
  client?: { id: string; write: boolean };
}

export const isStaff = (viewer: Viewer): boolean => viewer.role === 'staff';

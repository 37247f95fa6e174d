import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { ReaderAnswer, ReaderRequest } from './thread.js';

/**
 * Reader threads for SQLite's costly reads (decision 0009). better-sqlite3 runs a statement synchronously on the
 * thread that calls it and cannot stop it (no progress handler, no interrupt: decision 0006): a costly read on the
 * server's connection held the event loop, and every other user's request waited. Here a statement runs on a worker
 * thread of its own read-only connection; the event loop only sends it and gets the rows. A statement that runs past
 * the time budget has its thread terminated (which stops SQLite at once) and a new one takes its place; its request
 * answers 503 with Retry-After, as PostgreSQL's statement_timeout does (plugins/errors.ts).
 */

/** The error of a statement past the budget, or of a thread that died under it: a 503 (plugins/errors.ts). */
export class ReaderInterrupted extends Error {
  /** SQLite's own code for a statement interrupted before its end. */
  readonly code = 'SQLITE_INTERRUPT';
}

interface Job extends ReaderRequest {
  resolve(rows: Array<Record<string, unknown>>): void;
  reject(error: Error): void;
  /** The budget's timer: while queued, for the wait; once running, for the statement. */
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  /** The connection is open (the thread said so): statements go to ready threads only. */
  ready: boolean;
  /** Terminated, not yet exited: its place is taken until it has (see `interrupt`). */
  stopping: boolean;
  job: Job | null;
}

/**
 * Threads made as work comes (a thread that died is not made again until there is work), statements queued in
 * the order they come when all are busy. The queue's wait is bounded by the budget too: past it, 503 at once rather
 * than a statement that starts when its client has given up. Per-user fair share is upstream (jsonapi/fair-share.ts:
 * at most two reads of one user at once), so one user holds at most two places here.
 */
export class SqliteReaderPool {
  private readonly slots: Array<Slot | null>;
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(
    private readonly path: string,
    readonly size: number,
    readonly budgetMs: number,
    /** The `row-builders` mechanism (performance/mechanisms.ts), for the threads' connections. */
    private readonly rowBuilders = true,
  ) {
    this.slots = Array.from({ length: size }, () => null);
  }

  /** The rows of one read statement, run on a reader thread. */
  run(sql: string, parameters: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
    if (this.closed) return Promise.reject(new Error('The reader threads are closed.'));
    return new Promise((resolve, reject) => {
      const job: Job = { sql, parameters, resolve, reject };
      if (this.budgetMs > 0) {
        job.timer = setTimeout(() => {
          this.queue.splice(this.queue.indexOf(job), 1);
          reject(new ReaderInterrupted('The server is busy with other costly reads.'));
        }, this.budgetMs);
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /**
   * Starts every thread and waits until each has its connection open: at the server's start (server.ts) and in tests.
   * A thread that died is made again when a read comes.
   */
  async start(): Promise<void> {
    for (;;) {
      const waits = this.slots
        .map((_, i) => {
          const slot = this.slots[i] ?? (this.slots[i] = this.startThread(i));
          if (slot.ready && !slot.stopping) return null;
          if (slot.stopping) return new Promise((resolve) => slot.worker.once('exit', resolve));
          // A thread that cannot open the file stops the server's start with its error, rather than hanging it.
          return new Promise((resolve, reject) => {
            slot.worker.once('message', resolve);
            slot.worker.once('error', reject);
          });
        })
        .filter((w) => w !== null);
      if (waits.length === 0) return;
      await Promise.all(waits);
    }
  }

  /** Threads alive now (tests). */
  get threads(): number {
    return this.slots.filter((s) => s !== null).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, new Error('The reader threads are closed.'));
    await Promise.all(
      this.slots.map((slot, i) => {
        this.slots[i] = null;
        return slot?.worker.terminate();
      }),
    );
  }

  /** A thread is ready and idle, with nothing queued: a statement sent now starts at once. */
  hasIdleThread(): boolean {
    return this.queue.length === 0 && this.slots.some((s) => s !== null && s.ready && !s.stopping && s.job === null);
  }

  /** Starts queued statements on idle threads, making threads as needed. */
  private dispatch(): void {
    for (let i = 0; i < this.slots.length && this.queue.length > 0; i += 1) {
      const slot = this.slots[i] ?? (this.slots[i] = this.startThread(i));
      if (!slot.ready || slot.stopping || slot.job) continue;
      const job = this.queue.shift()!;
      clearTimeout(job.timer);
      slot.job = job;
      if (this.budgetMs > 0) job.timer = setTimeout(() => this.interrupt(i, slot), this.budgetMs);
      slot.worker.postMessage({ sql: job.sql, parameters: job.parameters } satisfies ReaderRequest);
    }
  }

  private startThread(i: number): Slot {
    const worker = readerThread(this.path, this.rowBuilders);
    const slot: Slot = { worker, ready: false, stopping: false, job: null };
    worker.on('message', (answer: ReaderAnswer) => {
      if ('ready' in answer) {
        slot.ready = true;
        return this.dispatch();
      }
      const job = slot.job;
      slot.job = null;
      if (job)
        this.settle(
          job,
          'error' in answer ? Object.assign(new Error(answer.error.message), { code: answer.error.code }) : answer.rows,
        );
      this.dispatch();
    });
    // A thread that dies (out of memory, a fault in the driver): its statement fails as interrupted, and the next
    // statement gets a new thread.
    const died = (reason: unknown) => {
      if (this.slots[i] !== slot) return;
      this.slots[i] = null;
      if (slot.job)
        this.settle(
          slot.job,
          new ReaderInterrupted(
            `A reader thread stopped (${reason instanceof Error ? reason.message : `exit ${String(reason)}`}).`,
          ),
        );
      if (!this.closed) this.dispatch();
    };
    worker.on('error', died);
    worker.on('exit', died);
    return slot;
  }

  /**
   * A statement past the budget: its request answers at once, and its thread is terminated. V8 stops a thread when
   * it next runs JavaScript, and SQLite calls into JavaScript for every row a text match looks at (the fold
   * function, jsonapi/fold.ts), so the engine's costly reads stop there; a statement that calls no function runs on
   * to its end. Either way the new thread starts only when the old one has exited ('exit' in startThread): the pool
   * never runs more than `size` threads, whatever is sent.
   */
  private interrupt(i: number, slot: Slot): void {
    if (this.slots[i] !== slot || !slot.job) return;
    const job = slot.job;
    slot.job = null;
    slot.stopping = true;
    void slot.worker.terminate();
    this.settle(job, new ReaderInterrupted(`The statement ran longer than the budget of ${this.budgetMs} ms.`));
  }

  private settle(job: Job, outcome: Error | Array<Record<string, unknown>>): void {
    clearTimeout(job.timer);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }
}

/**
 * The thread's code: thread.js beside this file once built. Under the tests the source is TypeScript, which a
 * worker cannot load by itself: it registers tsx (a dev dependency) first.
 */
function readerThread(path: string, rowBuilders: boolean): Worker {
  const script = new URL(`./thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (script.pathname.endsWith('.js')) return new Worker(script, { workerData: { path, rowBuilders } });
  const load = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(load, { eval: true, workerData: { path, rowBuilders } });
}

/**
 * A Kysely whose statements run on the pool: the engine's reads (jsonapi/read.ts) take it as they take the server's
 * own. Reads only: it has no transactions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- dynamic SQL, as the engine's Db (db/database.ts)
export function readerThreadsDb(pool: SqliteReaderPool, log: () => void): Kysely<any> {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      return { rows: (await pool.run(query.sql, query.parameters)) as R[] };
    },
    // eslint-disable-next-line require-yield
    async *streamQuery() {
      throw new Error('The reader threads do not stream.');
    },
  };
  const noTransactions = async () => {
    throw new Error('The reader threads run reads only, outside transactions.');
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: async () => undefined,
    destroy: () => pool.close(),
  };
  return new Kysely({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    log,
  });
}

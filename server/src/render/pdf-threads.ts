import { Worker } from 'node:worker_threads';
import type { PdfAnswer, PdfRequest } from './pdf-thread.js';
import { renderPdfHere, type PdfInputs, type PdfKind } from './pdf-renderers.js';

/**
 * PDF rendering on worker threads (the `pdf-threads` mechanism, decision 0007). pdf-lib lays out and writes a
 * document synchronously: a form 1's PDF and its invoice's took about 60 ms of the event loop inside the
 * certification's transaction, and every other request waited. Here the event loop sends the input (plain data)
 * and gets the bytes back; meanwhile it serves other requests. Rendering is the same code with the same input, so
 * the file is the same (pdf-threads.test.ts).
 *
 * Threads are made as documents come (the server warms one up at its start), up to `size`; a document waits in
 * order when all are busy. An idle thread is unreferenced, so it never keeps a process alive; one at work is, so a
 * script awaiting a PDF is not cut short.
 */
/**
 * Threads an app renders on: two cores, and on SQLite one write transaction (so one certification's PDFs) at a
 * time; a second thread serves PostgreSQL's concurrent writes.
 */
export const PDF_THREADS = 2;

export class PdfThreads {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {}

  render<K extends PdfKind>(kind: K, input: PdfInputs[K]): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('The PDF threads are closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, kind, input }, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Starts one thread now, without waiting for it: a thread's first document also loads pdf-lib and the renderers
   * (about half a second), which the server's first certification would otherwise pay inside its transaction.
   */
  warmUp(): void {
    if (!this.closed && this.threads.length === 0) this.startThread();
  }

  /** Threads alive now (tests). */
  get alive(): number {
    return this.threads.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    const closed = () => new Error('The PDF threads are closed.');
    for (const job of this.queue.splice(0)) job.reject(closed());
    const threads = this.threads.splice(0);
    for (const thread of threads) thread.job?.reject(closed());
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.threads.find((t) => !t.job) ?? this.startThread();
      if (!thread) return;
      const job = this.queue.shift()!;
      thread.job = job;
      thread.worker.ref();
      thread.worker.postMessage(job.request);
    }
  }

  private startThread(): Thread | null {
    if (this.threads.length >= this.size) return null;
    const thread: Thread = { worker: pdfThread(), job: null };
    thread.worker.unref();
    thread.worker.on('message', (answer: PdfAnswer) => {
      const job = thread.job;
      thread.job = null;
      thread.worker.unref();
      if (job) {
        if ('bytes' in answer) job.resolve(answer.bytes);
        else job.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
      }
      this.dispatch();
    });
    // A thread that dies (out of memory, terminated): its document fails, and the next one gets a new thread.
    const died = (reason: unknown) => {
      const at = this.threads.indexOf(thread);
      if (at < 0) return;
      this.threads.splice(at, 1);
      thread.job?.reject(
        new Error(`A PDF thread stopped (${reason instanceof Error ? reason.message : `exit ${String(reason)}`}).`),
      );
      thread.job = null;
      if (!this.closed) this.dispatch();
    };
    thread.worker.on('error', died);
    thread.worker.on('exit', died);
    this.threads.push(thread);
    return thread;
  }
}

interface Job {
  request: PdfRequest;
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  job: Job | null;
}

/** Where the server's PDFs are rendered: the threads when the app has them, else the calling thread (CLI, demo). */
export const renderPdf = <K extends PdfKind>(
  threads: PdfThreads | undefined,
  kind: K,
  input: PdfInputs[K],
): Promise<Uint8Array> => (threads ? threads.render(kind, input) : renderPdfHere(kind, input));

/**
 * The thread's code: pdf-thread.js beside this file once built. Under the tests the source is TypeScript, which a
 * worker cannot load by itself: it registers tsx (a dev dependency) first, as the reader threads do
 * (db/sqlite-readers/pool.ts).
 */
function pdfThread(): Worker {
  const script = new URL(`./pdf-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (script.pathname.endsWith('.js')) return new Worker(script);
  const load = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(load, { eval: true });
}

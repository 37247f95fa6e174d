import { parentPort } from 'node:worker_threads';
import { PDF_RENDERERS, type PdfInputs, type PdfKind } from './pdf-renderers.js';

/**
 * A PDF thread (pdf-threads.ts): renders one document at a time and sends its bytes back, the buffer moved rather
 * than copied. A renderer's error goes back as its name and message, to be thrown again where it was asked for.
 */
export interface PdfRequest<K extends PdfKind = PdfKind> {
  id: number;
  kind: K;
  input: PdfInputs[K];
}
export type PdfAnswer = { id: number; bytes: Uint8Array } | { id: number; error: { name: string; message: string } };

parentPort!.on('message', ({ id, kind, input }: PdfRequest) => {
  (PDF_RENDERERS[kind] as (input: PdfInputs[PdfKind]) => Promise<Uint8Array>)(input).then(
    (bytes) => parentPort!.postMessage({ id, bytes } satisfies PdfAnswer, [bytes.buffer as ArrayBuffer]),
    (e: unknown) => {
      const error = e instanceof Error ? e : new Error(String(e));
      parentPort!.postMessage({ id, error: { name: error.name, message: error.message } } satisfies PdfAnswer);
    },
  );
});

import { afterEach, describe, expect, it } from 'vitest';
import { form1, invoice } from '../test-support/form-pdf-samples.js';
import { withoutTimes } from '../test-support/pdf.js';
import { renderPdfHere, type PdfInputs, type PdfKind } from './pdf-renderers.js';
import { PdfThreads } from './pdf-threads.js';

describe('PDF threads', () => {
  let threads: PdfThreads | undefined;
  afterEach(async () => threads?.close());

  const both = async <K extends PdfKind>(kind: K, input: PdfInputs[K]) => {
    threads = new PdfThreads(2);
    const [there, here] = await Promise.all([threads.render(kind, input), renderPdfHere(kind, input)]);
    return { there, here };
  };

  it.each([
    ['form', form1],
    ['invoice', invoice],
  ] as const)('renders a %s to the same bytes as the event loop does', async (kind, input) => {
    const { there, here } = await both(kind, input);
    expect(there).toBeInstanceOf(Uint8Array);
    expect(there.byteLength).toBe(here.byteLength);
    expect(withoutTimes(there)).toBe(withoutTimes(here));
    expect(withoutTimes(there)).toContain('D:0Z');
  });

  it("throws a renderer's error as the renderer throws it", async () => {
    const broken = { ...invoice, lines: null } as unknown as InvoicePdfInput;
    const here = await renderPdfHere('invoice', broken).catch((e: Error) => e);
    threads = new PdfThreads(1);
    const there = await threads.render('invoice', broken).catch((e: Error) => e);
    expect(here).toBeInstanceOf(TypeError);
    expect(there).toBeInstanceOf(Error);
    expect({ name: (there as Error).name, message: (there as Error).message }).toEqual({
      name: (here as Error).name,
      message: (here as Error).message,
    });
    // The thread renders on after an error.
    expect((await threads.render('invoice', invoice)).byteLength).toBeGreaterThan(1000);
  });

  it('makes threads only as documents come, at most its size, and ends its work when closed', async () => {
    threads = new PdfThreads(2);
    expect(threads.alive).toBe(0);
    await Promise.all([1, 2, 3].map(() => threads!.render('invoice', invoice)));
    expect(threads.alive).toBe(2);
    threads.warmUp();
    expect(threads.alive).toBe(2);
    // Its rejection is taken at once: it comes while close() is awaited.
    const cut = threads.render('invoice', invoice).catch((e: Error) => e);
    await threads.close();
    expect(String(await cut)).toMatch(/closed/);
    expect(threads.alive).toBe(0);
    await expect(threads.render('invoice', invoice)).rejects.toThrow(/closed/);
  });
});

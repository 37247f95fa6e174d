/**
 * `npm run bench:pdf [-- --rounds 400]`: what rendering the portal's PDFs costs, against pdf-lib's own drawing as a
 * baseline measured in the same run.
 *
 * Every page of the portal's PDFs is drawn through PageContent (render/pdf-content.ts), which writes the content stream
 * as text and compresses it with Node's zlib. The baseline draws the same strings, lines and rectangles with pdf-lib's
 * drawText, drawLine and drawRectangle (what the layout did before): the same pages, so the difference is the writer.
 * Prints ms per document (median of rounds) and file sizes: a form 1, a form 3 with many exports, an invoice.
 */
import { PDFDocument, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { renderFormPdf } from '../server/src/render/form-pdf.js';
import { renderInvoicePdf } from '../server/src/render/invoice-pdf.js';
import { PageContent } from '../server/src/render/pdf-content.js';
import { certification, form1, handler, invoice } from '../server/src/test-support/form-pdf-samples.js';
import { parseArgs } from './lib.js';

const DOCUMENTS: Record<string, () => Promise<Uint8Array>> = {
  'form 1': () => renderFormPdf(form1),
  'form 3, 40 export lines': () =>
    renderFormPdf({
      bundle: 'apc_form_3',
      handler,
      period: { month: '2026-10' },
      amendmentNumber: 0,
      status: 'certified',
      attributes: { field_no_change_flag: false },
      rows: Array.from({ length: 40 }, (_, i) => ({
        field_country: ['CN', 'VN', 'CA', 'NL', 'MX'][i % 5],
        field_inshell_lb: 10_000 + i * 37,
        field_shelled_lb: 4_000 + i * 11,
        field_substandard_lb: 0,
      })),
      certification,
    }),
  invoice: () => renderInvoicePdf(invoice),
};

type Writer = Pick<PageContent, 'text' | 'line' | 'rect' | 'finish'>;

/** PageContent's drawing done by pdf-lib's own calls, for the baseline. */
function pdfLibWriter(page: PDFPage): Writer {
  return {
    text: (text: string, x: number, y: number, size: number, font: PDFFont, color: RGB) =>
      page.drawText(text, { x, y, size, font, color }),
    line: (x1: number, y1: number, x2: number, y2: number, thickness: number, color: RGB) =>
      page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness, color }),
    rect: (x: number, y: number, width: number, height: number, fill?: RGB, border?: RGB, borderWidth = 0) =>
      page.drawRectangle({ x, y, width, height, color: fill, borderColor: border, borderWidth }),
    finish: (_doc: PDFDocument) => undefined,
  };
}

async function timed(render: () => Promise<Uint8Array>, rounds: number): Promise<{ ms: number; bytes: number }> {
  for (let i = 0; i < 20; i += 1) await render();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    bytes = (await render()).byteLength;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], bytes };
}

async function main(): Promise<void> {
  const rounds = Number(parseArgs(process.argv.slice(2)).rounds ?? 400);
  const proto = PageContent.prototype as unknown as Record<keyof Writer, unknown> & { page?: PDFPage };
  const own = { text: proto.text, line: proto.line, rect: proto.rect, finish: proto.finish };
  const useBaseline = (on: boolean) => {
    for (const name of ['text', 'line', 'rect', 'finish'] as const) {
      proto[name] = on
        ? function (this: { page: PDFPage }, ...args: unknown[]) {
            return (pdfLibWriter(this.page)[name] as (...a: unknown[]) => unknown)(...args);
          }
        : own[name];
    }
  };
  console.log(`PDF rendering, median of ${rounds} rounds (Node ${process.version})`);
  console.log('| document | pdf-lib drawing | PageContent | speed-up | size before -> after |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, render] of Object.entries(DOCUMENTS)) {
    useBaseline(true);
    const before = await timed(render, rounds);
    useBaseline(false);
    const after = await timed(render, rounds);
    console.log(
      `| ${name} | ${before.ms.toFixed(2)} ms | ${after.ms.toFixed(2)} ms | ${(before.ms / after.ms).toFixed(1)}x | ${before.bytes} -> ${after.bytes} B |`,
    );
  }
}

void main();

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pdfParse from 'pdf-parse-fork';

/**
 * The text of each page of a PDF, items joined by spaces, as a reader would search it. With RENDER_SAMPLES_DIR set,
 * the PDF is also saved there under `sample` so a person can look at it.
 */
export async function pdfPages(bytes: Uint8Array, sample?: string): Promise<string[]> {
  if (sample && process.env.RENDER_SAMPLES_DIR) {
    mkdirSync(process.env.RENDER_SAMPLES_DIR, { recursive: true });
    writeFileSync(join(process.env.RENDER_SAMPLES_DIR, `${sample}.pdf`), bytes);
  }
  const pages: string[] = [];
  // A plain Uint8Array, not a Buffer: pdf.js 1.10 misreads some PDFs under 4 KB handed to it as a Node Buffer ("bad
  // XRef entry"; poppler reads them), and reads the same bytes right as a typed array. Its types ask for a Buffer.
  await pdfParse(new Uint8Array(bytes) as Buffer, {
    pagerender: async (page: { getTextContent(): Promise<{ items: Array<{ str: string }> }> }) => {
      const text = (await page.getTextContent()).items.map((i) => i.str).join(' ');
      pages.push(text);
      return text;
    },
  });
  return pages;
}

export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfPages(bytes)).join('\n');
}

/**
 * A PDF as text with pdf-lib's creation and modification times (to the second) set to one value, to compare two
 * renders that may fall in different seconds. The stamps have a fixed length, so every other byte, the
 * cross-reference offsets included, must match as it is.
 */
export const withoutTimes = (bytes: Uint8Array): string =>
  Buffer.from(bytes)
    .toString('latin1')
    .replace(/D:\d{14}Z/g, 'D:0Z');

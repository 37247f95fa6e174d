import { deflateSync } from 'node:zlib';
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import { PRINTABLE_ASCII } from './format.js';

/**
 * One page's drawing, written as content-stream text and added to the page as one stream compressed by Node's zlib.
 *
 * The same operators pdf-lib's drawText, drawLine and drawRectangle write (text in BT/ET with the font, size, fill
 * colour and position; lines and rectangles in their own graphics state), for a page that draws hundreds of strings:
 * pdf-lib builds a dozen operator objects per string, gives every string its own font resource, and deflates in
 * JavaScript (pako), which was two thirds of rendering a form (7 ms of a form 1's 10). The page looks the same.
 */
export class PageContent {
  private readonly ops: string[] = [];
  private readonly fontKeys = new Map<PDFFont, string>();

  constructor(private readonly page: PDFPage) {}

  text(text: string, x: number, y: number, size: number, font: PDFFont, color: RGB): void {
    this.ops.push(
      `q BT ${fillColor(color)} ${this.fontKey(font)} ${num(size)} Tf 1 0 0 1 ${num(x)} ${num(y)} Tm ${encoded(font, text)} Tj ET Q`,
    );
  }

  line(x1: number, y1: number, x2: number, y2: number, thickness: number, color: RGB): void {
    this.ops.push(
      `q ${strokeColor(color)} ${num(thickness)} w [] 0 d ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S Q`,
    );
  }

  /** A rectangle filled, bordered or both, as drawRectangle paints it. */
  rect(x: number, y: number, width: number, height: number, fill?: RGB, border?: RGB, borderWidth = 0): void {
    if (!fill && !border) return;
    const paint = fill && borderWidth ? 'B' : fill ? 'f' : 'S';
    const colors = [fill && fillColor(fill), border && strokeColor(border)].filter(Boolean).join(' ');
    this.ops.push(
      `q ${colors} ${num(borderWidth)} w [] 0 d ${num(x)} ${num(y)} ${num(width)} ${num(height)} re ${paint} Q`,
    );
  }

  /** Adds what was drawn to the page (once, when the document is finished). */
  finish(doc: PDFDocument): void {
    if (this.ops.length === 0) return;
    const bytes = deflateSync(Buffer.from(this.ops.join('\n'), 'latin1'));
    this.page.node.addContentStream(doc.context.register(doc.context.stream(bytes, { Filter: 'FlateDecode' })));
  }

  /** The page's resource name of a font, made on its first use. */
  private fontKey(font: PDFFont): string {
    let key = this.fontKeys.get(font);
    if (key === undefined) {
      key = this.page.node.newFontDictionary(font.name, font.ref).asString();
      this.fontKeys.set(font, key);
    }
    return key;
  }
}

/**
 * A string in the font's encoding: printable ASCII (WinAnsi's codes for it are its own) as a literal string, anything
 * else as the hex string of the font's codes.
 */
function encoded(font: PDFFont, text: string): string {
  if (PRINTABLE_ASCII.test(text)) return `(${text.replace(/[\\()]/g, '\\$&')})`;
  return font.encodeText(text).toString();
}

const fillColor = (c: RGB) => `${num(c.red)} ${num(c.green)} ${num(c.blue)} rg`;
const strokeColor = (c: RGB) => `${num(c.red)} ${num(c.green)} ${num(c.blue)} RG`;

/** A coordinate or colour component to a thousandth: finer than a printer's dot, and never in exponent notation. */
function num(n: number): string {
  const rounded = Math.round(n * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

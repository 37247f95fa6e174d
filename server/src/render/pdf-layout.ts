/**
 * The page layout every PDF of the portal shares: US-letter pages with the council's running header, a title block,
 * section headings, wrapped paragraphs, boxed notices and tables that flow onto further pages (repeating their
 * header row), and a footer with "Page N of M" added when the document is finished. Every string drawn passes
 * through pdfSafe, so user-typed text can never make the standard fonts throw.
 */
import { PDFDocument, StandardFonts, degrees, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { PageContent } from './pdf-content.js';
import { pdfSafe } from './format.js';

export const COLORS = {
  brand: rgb(0.36, 0.22, 0.1),
  brandLight: rgb(0.96, 0.93, 0.88),
  text: rgb(0.1, 0.1, 0.1),
  muted: rgb(0.4, 0.4, 0.4),
  rule: rgb(0.75, 0.72, 0.68),
  zebra: rgb(0.975, 0.97, 0.96),
  computed: rgb(0.91, 0.91, 0.91),
  alert: rgb(0.7, 0.1, 0.08),
  ok: rgb(0.1, 0.45, 0.2),
  white: rgb(1, 1, 1),
};

const PAGE = { width: 612, height: 792 }; // US letter, points
const MARGIN = { left: 54, right: 54, top: 50, bottom: 56 };
/** Where the content starts below the running header. */
const CONTENT_TOP = PAGE.height - MARGIN.top - 26;

export type FontName = 'regular' | 'bold' | 'oblique';
export type Align = 'left' | 'right' | 'center';

export interface TextStyle {
  size?: number;
  font?: FontName;
  color?: RGB;
}

export interface DocumentMeta {
  /** PDF metadata title and the right-hand part of the running header. */
  title: string;
  /** Short reference shown in the running header, e.g. "Handler 101 - October 2026". */
  reference?: string;
  /** Small print at the left of the footer of every page. */
  footerNote?: string;
  /** Large faint diagonal word on every page, e.g. "DRAFT". */
  watermark?: string;
}

export interface TableColumn {
  header: string;
  /** Relative width; the columns share the table's width in these proportions. */
  width: number;
  align?: Align;
  font?: FontName;
  color?: RGB;
}

export type RowStyle = 'normal' | 'total' | 'computed';

export interface TableRow {
  cells: string[];
  style?: RowStyle;
}

export interface TableSpec {
  columns: TableColumn[];
  rows: TableRow[];
  /** Left indent from the margin, in points. */
  indent?: number;
  /** Width in points; the full content width less the indent by default. */
  width?: number;
  fontSize?: number;
  /** A row of group headings above the column headers, each spanning `span` columns (e.g. "October 2026" over two). */
  groups?: Array<{ label: string; span: number }>;
}

const LINE = 1.25; // line height factor

/**
 * Widths of strings already measured, by font, size and text. Measuring sums pdf-lib's glyph widths and kerning pairs
 * one character at a time, and wrapping a table cell measures every prefix of it, twice a row (its height, then its
 * drawing): that was a sixth of rendering a form. The fonts are the fixed standard ones, so a width never changes;
 * labels and headings repeat in every document. Emptied when full, so a long run holds at most this many.
 */
const TEXT_WIDTHS = new Map<string, number>();
const TEXT_WIDTHS_KEPT = 50_000;
const CELL_PAD_X = 5;
const CELL_PAD_Y = 3.5;

export class PdfLayout {
  readonly contentWidth = PAGE.width - MARGIN.left - MARGIN.right;
  readonly left = MARGIN.left;
  page!: PDFPage;
  /** What is drawn on each page so far, in the order of the pages. */
  private readonly contents: PageContent[] = [];
  private content!: PageContent;
  /** The baseline cursor: the top of the free space on the current page. */
  y = CONTENT_TOP;

  private constructor(
    readonly doc: PDFDocument,
    private readonly fonts: Record<FontName, PDFFont>,
    private readonly meta: DocumentMeta,
  ) {}

  static async create(meta: DocumentMeta): Promise<PdfLayout> {
    const doc = await PDFDocument.create();
    doc.setTitle(pdfSafe(meta.title));
    doc.setAuthor('American Pecan Council');
    doc.setProducer('Pecan Handler Portal');
    doc.setCreator('Pecan Handler Portal');
    const fonts = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
      oblique: await doc.embedFont(StandardFonts.HelveticaOblique),
    };
    const layout = new PdfLayout(doc, fonts, meta);
    layout.newPage();
    return layout;
  }

  // ---- pages -------------------------------------------------------------------------------------------------

  newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.content = new PageContent(this.page);
    this.contents.push(this.content);
    this.y = CONTENT_TOP;
    this.drawRunningHeader();
  }

  /** Starts a new page unless `height` points still fit above the footer. */
  ensure(height: number): boolean {
    if (this.y - height >= MARGIN.bottom) return false;
    this.newPage();
    return true;
  }

  space(points: number): void {
    this.y -= points;
  }

  private drawRunningHeader(): void {
    const top = PAGE.height - MARGIN.top;
    this.text('AMERICAN PECAN COUNCIL', this.left, top, { size: 9, font: 'bold', color: COLORS.brand });
    const right = [this.meta.title, this.meta.reference].filter(Boolean).join('  |  ');
    this.textRight(right, PAGE.width - MARGIN.right, top, { size: 8, color: COLORS.muted });
    this.rule(top - 8, COLORS.brand, 1.2);
  }

  /** Adds footers, page numbers and the watermark, and returns the finished file. */
  async finish(): Promise<Uint8Array> {
    const pages = this.doc.getPages();
    pages.forEach((page, i) => {
      this.page = page;
      this.content = this.contents[i];
      this.rule(MARGIN.bottom - 14, COLORS.rule, 0.5);
      const baseline = MARGIN.bottom - 26;
      if (this.meta.footerNote) {
        this.text(this.fit(this.meta.footerNote, this.contentWidth - 90, 7), this.left, baseline, {
          size: 7,
          color: COLORS.muted,
        });
      }
      this.textRight(`Page ${i + 1} of ${pages.length}`, PAGE.width - MARGIN.right, baseline, {
        size: 8,
        color: COLORS.muted,
      });
      this.content.finish(this.doc);
      // The watermark is pdf-lib's own drawing (rotated, translucent), after the page's content so that it is on top.
      if (this.meta.watermark) this.drawWatermark(this.meta.watermark);
    });
    return this.doc.save({ useObjectStreams: false });
  }

  private drawWatermark(word: string): void {
    const size = 110;
    const width = this.fonts.bold.widthOfTextAtSize(pdfSafe(word), size);
    const angle = 45;
    const rad = (angle * Math.PI) / 180;
    const x = PAGE.width / 2 - (Math.cos(rad) * width) / 2 + Math.sin(rad) * size * 0.35;
    const y = PAGE.height / 2 - (Math.sin(rad) * width) / 2 - Math.cos(rad) * size * 0.35;
    this.page.drawText(pdfSafe(word), {
      x,
      y,
      size,
      font: this.fonts.bold,
      color: rgb(0.6, 0.6, 0.6),
      opacity: 0.15,
      rotate: degrees(angle),
    });
  }

  // ---- primitives ----------------------------------------------------------------------------------------------

  font(name: FontName = 'regular'): PDFFont {
    return this.fonts[name];
  }

  width(text: string, size: number, font: FontName = 'regular'): number {
    const key = `${font} ${size} ${text}`;
    let width = TEXT_WIDTHS.get(key);
    if (width === undefined) {
      if (TEXT_WIDTHS.size >= TEXT_WIDTHS_KEPT) TEXT_WIDTHS.clear();
      width = this.fonts[font].widthOfTextAtSize(pdfSafe(text), size);
      TEXT_WIDTHS.set(key, width);
    }
    return width;
  }

  text(text: string, x: number, y: number, style: TextStyle = {}): void {
    const size = style.size ?? 10;
    this.content.text(pdfSafe(text), x, y, size, this.fonts[style.font ?? 'regular'], style.color ?? COLORS.text);
  }

  textRight(text: string, right: number, y: number, style: TextStyle = {}): void {
    this.text(text, right - this.width(text, style.size ?? 10, style.font), y, style);
  }

  rule(y: number, color: RGB = COLORS.rule, thickness = 0.5, x = this.left, width = this.contentWidth): void {
    this.content.line(x, y, x + width, y, thickness, color);
  }

  rect(x: number, y: number, width: number, height: number, fill?: RGB, border?: RGB, borderWidth = 0.75): void {
    this.content.rect(x, y, width, height, fill, border, border ? borderWidth : 0);
  }

  /** Shortens text with an ellipsis to fit one line (for footers and other single-line slots only). */
  fit(text: string, width: number, size: number, font: FontName = 'regular'): string {
    const safe = pdfSafe(text);
    if (this.width(safe, size, font) <= width) return safe;
    let cut = safe;
    while (cut && this.width(`${cut}…`, size, font) > width) cut = cut.slice(0, -1);
    return `${cut}…`;
  }

  /** Breaks text into lines no wider than `width`; a word longer than a line is broken inside. */
  wrap(text: string, width: number, size: number, font: FontName = 'regular'): string[] {
    const lines: string[] = [];
    for (const paragraph of pdfSafe(text).split(/\n/)) {
      let line = '';
      for (const word of paragraph.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (this.width(candidate, size, font) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = word;
        while (this.width(line, size, font) > width && line.length > 1) {
          let n = line.length - 1;
          while (n > 1 && this.width(line.slice(0, n), size, font) > width) n--;
          lines.push(line.slice(0, n));
          line = line.slice(n);
        }
      }
      lines.push(line);
    }
    return lines;
  }

  // ---- blocks ------------------------------------------------------------------------------------------------

  /** Wrapped text at the cursor; flows onto the next page line by line. */
  paragraph(text: string, style: TextStyle & { indent?: number; after?: number } = {}): void {
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    for (const line of this.wrap(text, this.contentWidth - indent, size, style.font)) {
      this.ensure(size * LINE);
      this.y -= size * LINE;
      this.text(line, this.left + indent, this.y + size * 0.25, style);
    }
    this.y -= style.after ?? 4;
  }

  /** The large title of the document's first page, with an optional badge (e.g. "AMENDMENT 2") at its right. */
  title(text: string, badge?: string, badgeColor: RGB = COLORS.alert): void {
    const size = 18;
    const badgeWidth = badge ? this.width(badge, 10, 'bold') + 16 : 0;
    const lines = this.wrap(text, this.contentWidth - badgeWidth - 12, size, 'bold');
    this.y -= 8;
    lines.forEach((line, i) => {
      this.y -= size * 1.15;
      this.text(line, this.left, this.y, { size, font: 'bold', color: COLORS.brand });
      if (i === 0 && badge)
        this.badge(badge, this.left + this.contentWidth - badgeWidth, this.y - 4, badgeWidth, badgeColor);
    });
    this.y -= 10;
  }

  private badge(text: string, x: number, y: number, width: number, color: RGB): void {
    this.rect(x, y, width, 20, COLORS.white, color, 1.2);
    this.text(text, x + 8, y + 6.5, { size: 10, font: 'bold', color });
  }

  /** A section heading with a rule under it; kept on the page together with `keepWith` points of what follows. */
  heading(text: string, keepWith = 40): void {
    this.ensure(30 + keepWith);
    this.y -= 22;
    this.text(text, this.left, this.y, { size: 12, font: 'bold', color: COLORS.brand });
    this.rule(this.y - 5, COLORS.rule, 0.75);
    this.y -= 12;
  }

  /** A small caption above a sub-table. */
  caption(text: string, indent = 0): void {
    this.ensure(40);
    this.y -= 13;
    this.text(text, this.left + indent, this.y, { size: 9, font: 'bold', color: COLORS.text });
    this.y -= 4;
  }

  /** Label/value pairs laid out in a grid of `columns` columns (the document's identification block). */
  infoGrid(pairs: Array<[string, string]>, columns = 2): void {
    const colWidth = this.contentWidth / columns;
    for (let i = 0; i < pairs.length; i += columns) {
      const row = pairs.slice(i, i + columns);
      const wrapped = row.map(([, value]) => this.wrap(value, colWidth - 12, 10.5, 'bold'));
      const height = 12 + Math.max(...wrapped.map((w) => w.length)) * 13 + 6;
      this.ensure(height);
      row.forEach(([label], c) => {
        const x = this.left + c * colWidth;
        this.text(label.toUpperCase(), x, this.y - 9, { size: 7, font: 'bold', color: COLORS.muted });
        wrapped[c].forEach((line, l) => this.text(line, x, this.y - 22 - l * 13, { size: 10.5, font: 'bold' }));
      });
      this.y -= height;
    }
  }

  /** A bordered box holding a title and wrapped paragraphs; moves to the next page whole when it fits on one. */
  notice(title: string, paragraphs: string[], style: { size?: number; fill?: RGB; border?: RGB } = {}): void {
    const size = style.size ?? 8.5;
    const inner = this.contentWidth - 20;
    const blocks = paragraphs.map((p) => this.wrap(p, inner, size));
    const lineCount = blocks.reduce((n, b) => n + b.length, 0);
    const height = 26 + lineCount * size * LINE + (blocks.length - 1) * 4 + 6;
    this.ensure(Math.min(height, CONTENT_TOP - MARGIN.bottom) + 6);
    this.y -= 6;
    const top = this.y;
    this.rect(
      this.left,
      top - height,
      this.contentWidth,
      height,
      style.fill ?? COLORS.brandLight,
      style.border ?? COLORS.rule,
    );
    this.text(title, this.left + 10, top - 16, { size: 9.5, font: 'bold', color: COLORS.brand });
    let y = top - 22;
    for (const block of blocks) {
      for (const line of block) {
        y -= size * LINE;
        this.text(line, this.left + 10, y + 2, { size });
      }
      y -= 4;
    }
    this.y = top - height - 4;
  }

  // ---- tables ------------------------------------------------------------------------------------------------

  /**
   * Draws a table at the cursor. Rows that no longer fit go to the next page, where the header row is repeated;
   * cell text wraps within its column, so nothing is cut off.
   */
  table(spec: TableSpec): void {
    const size = spec.fontSize ?? 9;
    const x0 = this.left + (spec.indent ?? 0);
    const width = spec.width ?? this.contentWidth - (spec.indent ?? 0);
    const total = spec.columns.reduce((n, c) => n + c.width, 0);
    const widths = spec.columns.map((c) => (c.width / total) * width);
    const geometry = { x0, width, widths, size };
    const header = { cells: spec.columns.map((c) => c.header), style: 'header' as const };
    const headerHeight = this.rowHeight(header.cells, widths, size, 'bold');
    const firstRow = spec.rows[0] ? this.rowHeight(spec.rows[0].cells, widths, size, 'regular') : 0;
    const groupHeight = spec.groups ? size * LINE + 2 * CELL_PAD_Y : 0;
    const drawHeader = (): void => {
      if (spec.groups) this.drawGroups(spec.groups, geometry, groupHeight);
      this.drawRow(spec, geometry, header, 0);
    };
    this.ensure(groupHeight + headerHeight + firstRow + 2);
    drawHeader();
    spec.rows.forEach((row, i) => {
      const font = row.style === 'total' ? 'bold' : 'regular';
      // a closing total row never stands alone at the top of a page: the row before it moves with it
      const next = spec.rows[i + 1];
      const keep =
        next?.style === 'total' && i + 2 === spec.rows.length ? this.rowHeight(next.cells, widths, size, 'bold') : 0;
      if (this.ensure(this.rowHeight(row.cells, widths, size, font) + keep)) drawHeader();
      this.drawRow(spec, geometry, row, i + 1);
    });
    this.y -= 6;
  }

  private drawGroups(
    groups: NonNullable<TableSpec['groups']>,
    g: { x0: number; widths: number[]; size: number },
    height: number,
  ): void {
    let x = g.x0;
    let column = 0;
    for (const group of groups) {
      const width = g.widths.slice(column, column + group.span).reduce((n, w) => n + w, 0);
      if (group.label) {
        this.rect(x + 1, this.y - height, width - 2, height, COLORS.brandLight);
        const w = this.width(group.label, g.size, 'bold');
        this.text(group.label, x + (width - w) / 2, this.y - CELL_PAD_Y - g.size * LINE + g.size * 0.3, {
          size: g.size,
          font: 'bold',
          color: COLORS.brand,
        });
      }
      x += width;
      column += group.span;
    }
    this.y -= height + 1;
  }

  private rowHeight(cells: string[], widths: number[], size: number, font: FontName): number {
    const lines = cells.map((cell, i) => this.wrap(cell, widths[i] - 2 * CELL_PAD_X, size, font).length);
    return Math.max(1, ...lines) * size * LINE + 2 * CELL_PAD_Y;
  }

  private drawRow(
    spec: TableSpec,
    g: { x0: number; width: number; widths: number[]; size: number },
    row: { cells: string[]; style?: RowStyle | 'header' },
    index: number,
  ): void {
    const isHeader = row.style === 'header';
    const rowFont: FontName = isHeader || row.style === 'total' ? 'bold' : 'regular';
    const height = this.rowHeight(row.cells, g.widths, g.size, rowFont);
    const top = this.y;
    const fill = isHeader
      ? COLORS.brand
      : row.style === 'computed'
        ? COLORS.computed
        : row.style === 'total'
          ? COLORS.brandLight
          : index % 2 === 0
            ? COLORS.zebra
            : undefined;
    if (fill) this.rect(g.x0, top - height, g.width, height, fill);
    if (row.style === 'total') this.rule(top, COLORS.brand, 0.75, g.x0, g.width);
    let x = g.x0;
    row.cells.forEach((cell, i) => {
      const column = spec.columns[i];
      const font: FontName = isHeader ? 'bold' : row.style === 'total' ? 'bold' : (column.font ?? 'regular');
      const color = isHeader ? COLORS.white : (column.color ?? COLORS.text);
      const lines = this.wrap(cell, g.widths[i] - 2 * CELL_PAD_X, g.size, font);
      lines.forEach((line, l) => {
        const baseline = top - CELL_PAD_Y - (l + 1) * g.size * LINE + g.size * 0.3;
        const align = column.align ?? 'left';
        const w = this.width(line, g.size, font);
        const tx =
          align === 'right'
            ? x + g.widths[i] - CELL_PAD_X - w
            : align === 'center'
              ? x + (g.widths[i] - w) / 2
              : x + CELL_PAD_X;
        this.text(line, tx, baseline, { size: g.size, font, color });
      });
      x += g.widths[i];
    });
    this.rule(top - height, COLORS.rule, 0.4, g.x0, g.width);
    this.y = top - height;
  }
}

import { inflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfPages } from '../test-support/pdf.js';
import { PageContent } from './pdf-content.js';

async function drawn(draw: (content: PageContent, fonts: { regular: PDFFont; bold: PDFFont }) => void) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const content = new PageContent(page);
  draw(content, fonts);
  content.finish(doc);
  const bytes = await doc.save({ useObjectStreams: false });
  const saved = (await PDFDocument.load(bytes)).getPage(0);
  const stream = saved.node.Contents()!;
  const raw = stream instanceof PDFRawStream ? stream : saved.node.context.lookup(stream.get(0), PDFRawStream);
  const fontNames = saved.node.Resources()!.lookup(PDFName.of('Font'), PDFDict).keys();
  return { operators: inflateSync(raw.getContents()).toString('latin1'), fontNames, bytes, fonts };
}

describe('PageContent', () => {
  it('writes text as pdf-lib would show it, escaping what a literal string must and encoding the rest', async () => {
    const { operators, bytes } = await drawn((content, fonts) => {
      content.text('Assessment (net) \\ due', 54, 700.12345, 10, fonts.regular, rgb(0.1, 0.1, 0.1));
      content.text('Café – 5 lb', 54, 680, 10.5, fonts.bold, rgb(1, 0, 0));
    });
    expect(operators).toContain('0.1 0.1 0.1 rg');
    expect(operators).toContain('1 0 0 1 54 700.123 Tm (Assessment \\(net\\) \\\\ due) Tj');
    expect(operators).toMatch(/10\.5 Tf 1 0 0 1 54 680 Tm <[0-9A-F]+> Tj/);
    const text = (await pdfPages(bytes)).join('\n');
    expect(text).toContain('Assessment (net) \\ due');
    expect(text).toContain('Café – 5 lb');
  });

  it('names each font once on the page however many strings use it', async () => {
    const { fontNames } = await drawn((content, fonts) => {
      for (let i = 0; i < 20; i += 1)
        content.text(`line ${i}`, 54, 700 - i * 12, 9, i % 2 ? fonts.bold : fonts.regular, rgb(0, 0, 0));
    });
    expect(fontNames).toHaveLength(2);
  });

  it('fills, strokes or does both to a rectangle as drawRectangle does, and draws nothing for neither', async () => {
    const { operators } = await drawn((content) => {
      content.rect(10, 20, 30, 40, rgb(1, 1, 1));
      content.rect(10, 20, 30, 40, undefined, rgb(0, 0, 1), 0.75);
      content.rect(10, 20, 30, 40, rgb(1, 1, 1), rgb(0, 0, 1), 1.2);
      content.rect(10, 20, 30, 40);
      content.line(54, 100, 558, 100, 0.5, rgb(0.75, 0.72, 0.68));
    });
    const lines = operators.split('\n');
    expect(lines).toEqual([
      'q 1 1 1 rg 0 w [] 0 d 10 20 30 40 re f Q',
      'q 0 0 1 RG 0.75 w [] 0 d 10 20 30 40 re S Q',
      'q 1 1 1 rg 0 0 1 RG 1.2 w [] 0 d 10 20 30 40 re B Q',
      'q 0.75 0.72 0.68 RG 0.5 w [] 0 d 54 100 m 558 100 l S Q',
    ]);
  });
});

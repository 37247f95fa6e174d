import { describe, expect, it } from 'vitest';
import { columnLetter } from './layout.js';
import { FileProblem, kindOf, readCsv } from './read-file.js';

/** The parts of reading an upload that need no database: file kinds, CSV, column letters. */
describe('reading an upload', () => {
  it('tells the kind by name, then refuses bytes that do not fit it', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]);
    expect(kindOf('a.XLSX', zip)).toBe('xlsx');
    expect(kindOf('a.csv', Buffer.from('a,b'))).toBe('csv');
    const code = (name: string, content: Buffer) => {
      try {
        kindOf(name, content);
        return null;
      } catch (e) {
        return (e as FileProblem).code;
      }
    };
    expect(code('a.xlsm', zip)).toBe('macros');
    expect(code('a.xlsx', Buffer.from('a,b'))).toBe('broken');
    expect(code('a.csv', zip)).toBe('broken');
    expect(code('a.pdf', zip)).toBe('file_type');
  });

  it('reads RFC 4180 CSV: quotes, doubled quotes, CRLF, a BOM, semicolons', () => {
    const grid = readCsv(
      Buffer.from('\ufeffpecan-portal-import,1,apc_form_3,2026-11,h\r\nfield,"a ""b"", c",\r\n\r\nMX,"1,200"\n'),
    );
    expect(grid.marker).toEqual(['pecan-portal-import', '1', 'apc_form_3', '2026-11', 'h']);
    expect(grid.rows.slice(1)).toEqual([['field', 'a "b", c', null], [null], ['MX', '1,200']]);
    expect(readCsv(Buffer.from('m;1\nx;y\n')).rows[1]).toEqual(['x', 'y']);
  });

  it('refuses a formula, an unclosed quote', () => {
    expect(() => readCsv(Buffer.from('m\nreceipts_native,x,=SUM(A1)\n'))).toThrow(/C2 holds a formula/);
    expect(() => readCsv(Buffer.from('m\n"open\n'))).toThrow(FileProblem);
  });

  it('names columns as a spreadsheet does', () => {
    expect([1, 3, 26, 27, 52].map(columnLetter)).toEqual(['A', 'C', 'Z', 'AA', 'AZ']);
  });
});

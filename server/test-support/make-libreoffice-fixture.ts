/**
 * Makes form-1-2026-11-libreoffice.xlsx: the server's own form 1 template (exceljs), filled in, then opened and
 * saved again by LibreOffice Calc. Run by hand where LibreOffice is installed (Debian: libreoffice-calc-nogui):
 *   npx tsx server/test-support/make-libreoffice-fixture.ts
 * Tests use the committed file and never need LibreOffice.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { templateXlsx } from '../src/forms-import/template.js';
import { FIXTURE_HANDLER } from '../src/test-support/spreadsheets.js';

const workbook = new ExcelJS.Workbook();
await workbook.xlsx.load(
  (await templateXlsx({
    bundle: 'apc_form_1',
    month: '2026-11',
    handlerId: FIXTURE_HANDLER,
    handlerName: 'Riverbend Pecan Co.',
  })) as unknown as ArrayBuffer,
);
const sheet = workbook.getWorksheet('Import')!;
let last = 0;
const values: Record<string, ExcelJS.CellValue> = {
  receipts_native: 1234,
  shipments_inshell: 5000,
  date_completed: '2026-11-21',
  no_change_flag: 'no',
};
sheet.eachRow((row, r) => {
  last = r;
  const name = String(row.getCell(1).value ?? '');
  if (name in values) row.getCell(3).value = values[name];
});
sheet.getRow(last + 1).values = ['Desirable', 800];
const dir = mkdtempSync(join(tmpdir(), 'lo-fixture-'));
const input = join(dir, 'exceljs.xlsx');
writeFileSync(input, Buffer.from(await workbook.xlsx.writeBuffer()));
const out = join(dir, 'out');
execFileSync(
  'soffice',
  [
    '--headless',
    `-env:UserInstallation=file://${dir}/profile`,
    '--convert-to',
    'xlsx:Calc MS Excel 2007 XML',
    '--outdir',
    out,
    input,
  ],
  { stdio: 'inherit' },
);
copyFileSync(join(out, 'exceljs.xlsx'), fileURLToPath(new URL('./form-1-2026-11-libreoffice.xlsx', import.meta.url)));
console.log('written');

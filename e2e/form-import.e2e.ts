import { readFile, writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type Page, type TestInfo } from './support/test';
import { signIn } from './support/portal';

/**
 * Import from a spreadsheet, as a handler does it: download the form's template, fill it (exceljs here, as a person
 * would in a spreadsheet), upload it, see the bad cell by row and column, fix it, compare, apply; the draft shows
 * the figures. Dave (handler 103) files here, so no other test's forms move: form 1 on a desktop, form 3 on a phone.
 */
const onPhone = (info: TestInfo) => info.project.name === 'mobile';

async function fill(
  path: string,
  values: Record<string, ExcelJS.CellValue>,
  rows: ExcelJS.CellValue[][],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readFile(path)) as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Import')!;
  let last = 0;
  sheet.eachRow((row, r) => {
    last = r;
    const name = String(row.getCell(1).value ?? '');
    if (name in values) row.getCell(3).value = values[name];
  });
  rows.forEach((cells, i) => {
    sheet.getRow(last + 1 + i).values = cells;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function upload(page: Page, name: string, content: Buffer) {
  const dialog = page.getByRole('dialog', { name: 'Import from a spreadsheet' });
  await dialog.locator('input[type=file]').setInputFiles({
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: content,
  });
}

test.describe('form import from a spreadsheet', () => {
  test.describe.configure({ timeout: 180_000 });
  test.use({ actionTimeout: 30_000 });

  test('template, a bad cell by row and column, fix, preview, apply: the draft shows the figures', async ({
    page,
  }, info) => {
    // Dave's form 1 on a desktop, his form 2 on a phone: the desktop run certifies his form 3 (portal-data.e2e.ts).
    const n = onPhone(info) ? 2 : 1;
    await signIn(page, 'dave');
    await page.getByRole('button', { name: `Open form ${n}` }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/forms/apc_form_${n}/`));
    await page.getByRole('button', { name: 'Import from spreadsheet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from a spreadsheet' });
    await expect(dialog).toBeVisible();

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Template (.csv)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(new RegExp(`^form_${n}-\\d{4}-\\d{2}-import\\.csv$`));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Template (.xlsx)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const template = (await download.path())!;

    const good = n === 1 ? { receipts_native: 4321, shipments_inshell: 2500 } : {};
    const rows: ExcelJS.CellValue[][] =
      n === 1
        ? [
            ['Desirable', 7000],
            ['Stuart', 'lots'],
          ]
        : [
            ['2026-11-05', 'MX', 300, 20, 'Wichita'],
            ['2026-11-06', 'CA', 'lots', 0, ''],
          ];
    await upload(page, 'filled.xlsx', await fill(template, good, rows));
    const errors = dialog.getByTestId('import-errors');
    await expect(errors.getByText('1 cell needs a fix')).toBeVisible();
    const bad = errors.getByRole('row').filter({ hasText: 'Type a whole number of pounds from 0 to 10,000,000,000.' });
    await expect(bad).toContainText(n === 1 ? 'B' : 'C');
    await expect(bad.getByRole('cell').first()).toHaveText(/^\d+$/);
    await expect(dialog.getByRole('button', { name: 'Apply to draft' })).toBeDisabled();
    if (process.env.E2E_SHOTS)
      await writeFile(`${process.env.E2E_SHOTS}/import-errors-${info.project.name}.png`, await page.screenshot());

    const fixed: ExcelJS.CellValue[][] =
      n === 1
        ? [
            ['Desirable', 7000],
            ['Stuart', 1500],
          ]
        : [
            ['2026-11-05', 'MX', 300, 20, 'Wichita'],
            ['2026-11-06', 'CA', 80, 0, ''],
          ];
    await upload(page, 'filled.xlsx', await fill(template, good, fixed));
    const preview = dialog.getByTestId('import-preview');
    await expect(preview.getByText('The file is valid')).toBeVisible();
    const totals = preview.getByTestId('import-totals');
    if (n === 1) await expect(totals.getByRole('row').filter({ hasText: 'Improved' }).first()).toContainText('8,500');
    else await expect(totals.getByRole('row').nth(1)).toContainText('380');
    if (process.env.E2E_SHOTS)
      await writeFile(`${process.env.E2E_SHOTS}/import-preview-${info.project.name}.png`, await page.screenshot());

    await dialog.getByRole('button', { name: 'Apply to draft' }).click();
    await expect(page.getByText('The draft was saved from the file.')).toBeVisible({ timeout: 30_000 });
    await expect(dialog).toBeHidden();
    if (n === 1) {
      await expect(page.getByLabel('Receipts of native/seedling pecans')).toHaveValue('4,321');
      await expect(page.getByTestId('computed-receipts_improved')).toHaveText('8,500 lb inshell');
    } else {
      await expect(page.getByText('380 lb inshell').first()).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Save and continue to certification' })).toBeVisible();
    if (process.env.E2E_SHOTS)
      await writeFile(
        `${process.env.E2E_SHOTS}/import-applied-${info.project.name}.png`,
        await page.screenshot({ fullPage: true }),
      );
  });

  test('Cancel changes nothing', async ({ page }) => {
    await signIn(page, 'dave');
    await page.getByRole('button', { name: 'Open form 1' }).click();
    await page.getByRole('button', { name: 'Import from spreadsheet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from a spreadsheet' });
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(dialog.getByText('Only .xlsx and .csv files can be imported.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});

import { expect, test } from './support/test';
import { screenshot, settle, signIn, useLanguage } from './support/portal';

/**
 * Overdue invoices are said, not only counted: the dashboard says how many are overdue and for how much, and the
 * invoices table lists them first (the demo's handler 101 has unpaid invoices past their due date).
 */
const WIDTHS = [375, 800, 1366] as const;

for (const [lang, overdue, said, status] of [
  ['en', /^\s*\d+ overdue, \$[\d,]+\.\d{2}$/, /\d+ overdue, \$[\d,]+\.\d{2}/, 'Overdue'],
  ['sa', /^\s*\S+ متأخرة، .+$/, /\S+ متأخرة، /, 'متأخرة'],
] as const) {
  test(`the dashboard says how many invoices are overdue and the table lists them first (${lang})`, async ({
    page,
  }, info) => {
    if (lang !== 'en') await useLanguage(page, lang);
    await signIn(page, 'alice');
    const line = page.getByTestId('overdue-invoices');
    await expect(line).toBeVisible({ timeout: 30_000 });
    await expect(line).toHaveText(overdue);
    if (lang === 'sa') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await settle(page);
    if (info.project.name === 'desktop') {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(400);
        await screenshot(page, info, `dashboard-overdue-${width}`, lang);
      }
      await page.setViewportSize({ width: 1366, height: 900 });
    } else {
      await screenshot(page, info, 'dashboard-overdue', lang);
    }

    await page.goto('/dashboard/invoices');
    await expect(page.getByTestId('invoices-overdue')).toContainText(said);
    const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await expect(first.locator('.ant-tag')).toHaveText(status);
    await settle(page);
    await screenshot(page, info, 'invoices-overdue-first', lang);
  });
}

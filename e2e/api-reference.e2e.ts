import { expect, test } from './support/test';
import { expectAccessible, screenshot, settle, signIn, useLanguage } from './support/portal';

/**
 * Help -> API: the reference built from the server's own /jsonapi/openapi.json, in English and Arabic, at the
 * project's width (desktop: a table of fields; phone: a list, nothing scrolling sideways).
 */
test.describe('API reference', () => {
  test('Help links to the API reference, which shows types, fields, units, allowed values and filters', async ({
    page,
  }, info) => {
    await signIn(page);
    await page.goto('/dashboard/help');
    await page.getByRole('link', { name: 'Open the API reference' }).click();
    await expect(page).toHaveURL(/\/dashboard\/help\/api$/);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
    await expect(page.getByText('/jsonapi/openapi.json').first()).toBeVisible();
    await expect(page.getByText('Query parameters')).toBeVisible();
    await expect(page.getByText(/Operators: =, <>/)).toBeVisible();

    await page.getByPlaceholder('Find a type or field').fill('apc_form_1');
    await page.getByRole('button', { name: /node--apc_form_1/ }).click();
    const panel = page.locator('.ant-collapse-item-active');
    await expect(panel.getByText('/jsonapi/node/apc_form_1', { exact: true })).toBeVisible();
    await expect(panel.getByText('field_receipts_native', { exact: true })).toBeVisible();
    await expect(panel.getByText('lb inshell').first()).toBeVisible();
    for (const value of ['draft', 'certified', 'superseded'])
      await expect(panel.getByText(value, { exact: true })).toBeVisible();
    await expect(panel.getByText('Filter and sort').first()).toBeVisible();
    await expect(panel.getByText('drupal_internal__nid', { exact: true })).toBeVisible();
    await expect(panel.locator('.ant-tag', { hasText: 'PATCH' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(1);
    await settle(page);
    await screenshot(page, info, 'api-reference', 'en');
    await expectAccessible(page, info, 'api-reference');
  });

  test('reads in Arabic, right to left', async ({ page }, info) => {
    await useLanguage(page, 'sa');
    await signIn(page);
    await page.goto('/dashboard/help/api');
    await expect(page.getByRole('heading', { level: 1, name: 'مرجع واجهة البرمجة' })).toBeVisible();
    await page.getByRole('button', { name: /node--invoice/ }).click();
    await expect(page.locator('.ant-collapse-item-active').getByText('US dollars').first()).toBeVisible();
    await settle(page);
    await screenshot(page, info, 'api-reference', 'sa');
  });
});

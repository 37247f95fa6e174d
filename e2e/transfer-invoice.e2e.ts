import { expect, test, type Page } from './support/test';
import { certifyForm, pickOption, screenshot, signIn, signOut } from './support/portal';

/**
 * Inter-handler transfers on form 1 and the invoices that follow form 4 (986.162, 986.26): alice (101) amends
 * October's form 1 with a line to Mesa Valley Pecans (102), which the demo's countersigned 2026-2027 agreement makes
 * responsible; carol (102) then finds the assumed assessment on her invoices. Desktop only: the run's database is
 * shared, and the phone project files as carol.
 */
const SEASON_STATUS = "Status of the season's forms";

async function saveAndCertify(page: Page) {
  await page.getByRole('button', { name: 'Save and continue to certification' }).click();
  await expect(page).toHaveURL(/\/dashboard\/formCertification\//, { timeout: 60_000 });
  await certifyForm(page);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
}

test.describe('inter-handler transfers', () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({ actionTimeout: 30_000 });

  test("a transfer line on form 1 appears on the receiving handler's invoice", async ({ page }, info) => {
    test.skip(info.project.name !== 'desktop', 'files as alice on the shared database');
    await signIn(page, 'alice');
    await page
      .getByRole('table', { name: SEASON_STATUS })
      .getByRole('row')
      .filter({ hasText: /October/ })
      .getByRole('link')
      .first()
      .click();
    await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_1\//);
    await page.getByRole('button', { name: /^(edit )?Amend$/ }).click();
    await page.getByLabel('Reason for the amendment').fill('Transfer to Mesa Valley left out');
    await page.getByRole('button', { name: 'Create amendment' }).click();
    await expect(page).toHaveURL(/\/dashboard\/formAmendCertification\//, { timeout: 60_000 });

    const lines = page.getByTestId('transfer-lines');
    const before = Number(((await lines.getByTestId('transfer-total').textContent()) ?? '0').replace(/,/g, ''));
    await lines.getByRole('button', { name: 'Add a transfer line' }).click();
    const n = await lines.getByRole('button', { name: /^Remove line / }).count();
    await pickOption(
      page,
      lines.getByRole('combobox', { name: `Receiving handler of line ${n}` }),
      'Mesa',
      'Mesa Valley Pecans (102)',
    );
    await lines.getByRole('spinbutton', { name: `Pounds of line ${n}` }).fill('12345');
    await expect(lines.getByTestId('transfer-total')).toHaveText((before + 12_345).toLocaleString('en-US'));
    await lines.scrollIntoViewIfNeeded();
    await screenshot(page, info, 'form1-transfer-lines', 'en', false);
    await saveAndCertify(page);
    await signOut(page);

    await signIn(page, 'carol');
    await page.goto('/dashboard/invoices');
    const assumed = page
      .getByTestId('invoice-transfer-lines')
      .getByText(
        'Assessment assumed under inter-handler agreement with Riverbend Pecan Co. (101): 12,345 lb Improved, $123.45',
      );
    await expect(assumed.first()).toBeVisible({ timeout: 60_000 });
    await screenshot(page, info, 'invoice-transfer-lines', 'en', false);
  });
});

import { readFile } from 'node:fs/promises';
import { expect, test, type Page, type TestInfo } from './support/test';
import { certifyForm, confirmInPopup, signIn } from './support/portal';

/**
 * The filing journeys: dashboard, forms 1-3, certification, amendments, invoices, the packet confirmation.
 * The database is shared by the whole run, so the desktop project files as alice (handler 101) and the mobile
 * project as carol (handler 102): each project certifies its own current forms.
 */
const userFor = (info: TestInfo) => (info.project.name === 'mobile' ? 'carol' : 'alice');
const fullNameFor = (info: TestInfo) => (info.project.name === 'mobile' ? 'Carol Jensen' : 'Alice Moreno');
/** The contract's statement (CERTIFICATION_STATEMENT_TEMPLATE) as the user's company makes it. */
const certificationStatement = (info: TestInfo) =>
  `I am authorized to file this report on behalf of ${info.project.name === 'mobile' ? 'Mesa Valley Pecans' : 'Riverbend Pecan Co.'}, and I certify that the information in it is true and complete to the best of my knowledge.`;

/**
 * The dashboard's status of the season's forms: a table on a desktop, a list with a block a month on a phone (its
 * table scrolled sideways there). Both are named alike; a month is a row after the header, or an item.
 */
const SEASON_STATUS = "Status of the season's forms";
const onPhone = (info: TestInfo) => info.project.name === 'mobile';
const seasonStatus = (page: Page, info: TestInfo) =>
  page.getByRole(onPhone(info) ? 'list' : 'table', { name: SEASON_STATUS });
const seasonMonth = (page: Page, info: TestInfo, index: number) =>
  onPhone(info)
    ? seasonStatus(page, info).getByRole('listitem').nth(index)
    : seasonStatus(page, info)
        .getByRole('row')
        .nth(index + 1);

/** The pounds a figure on a form page shows ('12,345 lb inshell' -> 12345). */
async function pounds(figure: ReturnType<Page['locator']>): Promise<number> {
  await expect(figure).toHaveText(/^[\d,]+ lb/);
  return Number(((await figure.textContent()) ?? '').replace(/ lb.*$/, '').replace(/,/g, ''));
}

/** The current month's draft of form n, opened from the dashboard's "Due next" card. */
async function openDraftForm(page: Page, n: 1 | 2 | 3) {
  await page.getByRole('button', { name: `Open form ${n}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/forms/apc_form_${n}/`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Form ${n}:`) })).toBeVisible();
}

test.describe('filing', () => {
  // Writes render PDFs and recompute figures on the server: allow for a busy machine.
  test.describe.configure({ timeout: 180_000 });
  test.use({ actionTimeout: 30_000 });
  test('the dashboard shows the season with the status of forms 1, 2 and 3', async ({ page }, info) => {
    await signIn(page, userFor(info));
    await expect(page.getByText(/^Forms of the \d{4}-\d{4} season$/)).toBeVisible();
    const status = seasonStatus(page, info);
    await expect(seasonMonth(page, info, 0)).toBeVisible();
    await expect(status.getByText(/^(Draft|Overdue)$/).first()).toBeVisible();
    await expect(status.getByText(/^(Certified|Amended)$/).first()).toBeVisible();
    // Every form's status is in view, whatever the width: on a phone each month names its forms, and nothing scrolls
    // sideways to show them.
    const month = seasonMonth(page, info, 0);
    await month.scrollIntoViewIfNeeded();
    for (const n of [1, 2, 3])
      await expect(month.getByRole('link', { name: new RegExp(`^Form ${n}: `) })).toBeInViewport();
    if (onPhone(info)) {
      await expect(month.getByText('Form 1', { exact: true })).toBeVisible();
      await expect(month.getByText(/^Due /)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await expect(page.getByText('Due next')).toBeVisible();
    await expect(page.getByText(/The forms for .* are due on/)).toBeVisible();
    // Another season can be chosen.
    const title = page.getByText(/^Forms of the \d{4}-\d{4} season$/);
    const before = await title.textContent();
    const season = page.getByLabel('Season', { exact: true });
    await expect(season).toBeEnabled();
    await season.selectOption({ index: 1 });
    await expect(title).not.toHaveText(before ?? '');
    await expect(seasonStatus(page, info).getByText('Certified').first()).toBeVisible();
  });

  test('edit form 1 (validation, live totals), save, certify, then its invoice and PDF', async ({ page }, info) => {
    await signIn(page, userFor(info));
    // What the never-saved draft must show live: October's inshell shipments as its previous month, and October's
    // season to date plus what is typed as its own.
    await seasonMonth(page, info, 1).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_1\//);
    const october = {
      inshell: await pounds(page.locator('#f-shipments_inshell')),
      ytd: await pounds(page.getByTestId('computed-shipments_inshell_ytd')),
    };
    expect(october.ytd).toBeGreaterThanOrEqual(october.inshell);
    await page.goto('/dashboard');
    await openDraftForm(page, 1);

    const native = page.getByLabel('Receipts of native/seedling pecans');
    await native.fill('-5');
    await expect(page.getByText('Enter a whole number of pounds from 0 to 10,000,000,000.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save and continue to certification' })).toBeDisabled();
    await native.fill('1200');
    await expect(page.getByText('Enter a whole number of pounds from 0 to 10,000,000,000.')).toHaveCount(0);

    await page.getByRole('button', { name: 'Add a variety' }).click();
    await page.getByRole('combobox', { name: 'Variety of row 1' }).fill('Desirable');
    // Escape closes the suggestions and keeps what was typed (the browser used to empty the field).
    await page.getByRole('combobox', { name: 'Variety of row 1' }).press('Escape');
    await expect(page.getByRole('combobox', { name: 'Variety of row 1' })).toHaveValue('Desirable');
    await page.getByRole('spinbutton', { name: 'Pounds of row 1' }).fill('100000');
    // The row's three parts fit side by side at either width (on a phone its pounds and button had scrolled away).
    for (const part of [
      page.getByRole('combobox', { name: 'Variety of row 1' }),
      page.getByRole('spinbutton', { name: 'Pounds of row 1' }),
      page.getByRole('button', { name: 'Remove row 1' }),
    ]) {
      await expect(part).toBeInViewport({ ratio: 1 });
    }
    await expect(page.getByTestId('computed-receipts_improved')).toHaveText('100,000 lb inshell');
    await expect(page.getByTestId('computed-receipts_total')).toHaveText('101,200 lb inshell');
    await expect(page.getByTestId('computed-assessment_due')).toHaveText('$1,000.00');
    await page.getByLabel('Shipments this month, inshell').fill('2500');
    await expect(page.getByTestId('computed-shipments_inshell_prev_month')).toHaveText(
      `${october.inshell.toLocaleString('en-US')} lb inshell`,
    );
    await expect(page.getByTestId('computed-shipments_inshell_ytd')).toHaveText(
      `${(october.ytd + 2500).toLocaleString('en-US')} lb inshell`,
    );
    // Inshell and shelled pounds are never added into one figure.
    await expect(page.getByTestId('computed-shipments_total')).toHaveCount(0);

    await page.getByRole('button', { name: 'Save and continue to certification' }).click();
    await expect(page).toHaveURL(/\/dashboard\/formCertification\//, { timeout: 60_000 });
    // The one statement of every form, with the company's name, and the user's full name prefilled.
    await expect(page.getByTestId('certification-statement')).toHaveText(certificationStatement(info));
    await expect(page.getByLabel('Name of the certifier')).toHaveValue(fullNameFor(info));
    await page.getByLabel('Title of the certifier').fill('Office manager');
    // Certify waits for the "I have read" box.
    await expect(page.getByRole('button', { name: 'Certify', exact: true })).toBeDisabled();
    await certifyForm(page);
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
    await expect(page.getByText('Just certified').first()).toBeVisible();

    await page.goto('/dashboard/invoices');
    const row = page.getByRole('row').filter({ hasText: '$1,000.00' }).first();
    await expect(row).toBeVisible();
    // Its amount and status are in view at either width: a phone's table has two columns instead of scrolling sideways.
    await row.scrollIntoViewIfNeeded();
    await expect(row.getByText('$1,000.00')).toBeInViewport();
    await expect(row.getByText(/^(Open|Overdue)$/)).toBeInViewport();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Invoice PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(page.getByTestId('invoices-open-total')).toBeVisible();
  });

  test('amend a certified form 1 and certify the amendment', async ({ page }, info) => {
    await signIn(page, userFor(info));
    // The previous month (the season's second) is certified.
    await seasonMonth(page, info, 1).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_1\//);
    await page.getByRole('button', { name: /^(edit )?Amend$/ }).click();
    await page.getByLabel('Reason for the amendment').fill('Late weigh tickets');
    await page.getByRole('button', { name: 'Create amendment' }).click();
    await expect(page).toHaveURL(/\/dashboard\/formAmendCertification\//, { timeout: 60_000 });
    await expect(page.getByText('You are editing an amendment')).toBeVisible();
    await page.getByLabel('Inventory inshell').fill('777777');
    await page.getByRole('button', { name: 'Save and continue to certification' }).click();
    await expect(page).toHaveURL(/\/dashboard\/formCertification\//, { timeout: 60_000 });
    await expect(page.getByText('777,777 lb inshell')).toBeVisible();
    await certifyForm(page);
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
    await expect(seasonMonth(page, info, 1).getByText('Amended').first()).toBeVisible();
    await page.goto('/dashboard/forms');
    await expect(page.getByText('Superseded').first()).toBeVisible();
  });

  test('add and remove a form 3 row; the totals follow', async ({ page }, info) => {
    await signIn(page, userFor(info));
    await openDraftForm(page, 3);
    await page.getByRole('button', { name: 'Add a row' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Country of destination').click();
    await dialog.getByLabel('Country of destination').fill('Mexico');
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Inshell', { exact: true }).fill('4321');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const rows = page.getByRole('table', { name: 'Exports by country of destination' });
    await expect(rows.getByRole('row', { name: /Mexico/ })).toBeVisible();
    await expect(page.getByTestId('computed-total_inshell_lb')).toHaveText('4,321 lb inshell');
    // Mexico a second time: said at the country as it is picked, and nothing is saved.
    await page.getByRole('button', { name: 'Add a row' }).click();
    await dialog.getByLabel('Country of destination').click();
    await dialog.getByLabel('Country of destination').fill('Mexico');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('alert')).toHaveText(
      'Mexico already has a row on this form: add the pounds to that row.',
    );
    await dialog.getByLabel('Inshell', { exact: true }).fill('5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rows.getByRole('row', { name: /Mexico/ })).toHaveCount(1);
    await expect(page.getByTestId('computed-total_inshell_lb')).toHaveText('4,321 lb inshell');
    await page.getByRole('button', { name: 'Remove the row Mexico' }).click();
    await confirmInPopup(page, 'Remove');
    // Removing recomputes the form on the server and reloads it: allow for a busy machine.
    await expect(rows.getByRole('row', { name: /Mexico/ })).toHaveCount(0, { timeout: 45_000 });
    await expect(page.getByTestId('computed-total_inshell_lb')).toHaveText('0 lb inshell', { timeout: 45_000 });
  });

  test('add and remove a form 2 row (a purchase outside the US); the totals follow', async ({ page }, info) => {
    await signIn(page, userFor(info));
    await openDraftForm(page, 2);
    await page.getByRole('button', { name: 'Add a row' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Import date').fill('2026-11-12');
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Country of origin').click();
    await dialog.getByLabel('Country of origin').fill('Mexico');
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Inshell', { exact: true }).fill('2500');
    await dialog.getByLabel('Shelled', { exact: true }).fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('computed-purchased_inshell_total')).toHaveText('2,500 lb inshell');
    await page
      .getByRole('row', { name: /Mexico/ })
      .getByRole('button', { name: /^Remove the row/ })
      .click();
    await confirmInPopup(page, 'Remove');
    await expect(page.getByTestId('computed-purchased_inshell_total')).toHaveText('0 lb inshell', { timeout: 45_000 });
  });

  test('confirm the handler packet of the current season', async ({ page }, info) => {
    await signIn(page, userFor(info));
    const confirm = page.getByRole('button', { name: 'Confirm', exact: true });
    await expect(page.getByText(/Please confirm that you received|was confirmed by/)).toBeVisible();
    if (await confirm.isVisible()) await confirm.click();
    await expect(page.getByText(/The handler packet for .* was confirmed by/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/The handler packet for .* was confirmed by/)).toBeVisible();
  });

  test('Next package opens the newer month; on the newest month there is none', async ({ page }, info) => {
    await signIn(page, userFor(info));
    // The season's list is newest first: the second row is the month before the newest.
    await seasonMonth(page, info, 1).getByRole('link').nth(1).click();
    await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_2\//);
    const first = page.url();
    const month = await page.locator('.ant-descriptions-item-content').first().textContent();
    await page.getByRole('button', { name: 'Next package' }).click();
    await expect(page).not.toHaveURL(first);
    await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_2\//);
    await expect(page.locator('.ant-descriptions-item-content').first()).not.toHaveText(month ?? '');
    // That is the newest month: nothing is newer.
    await expect(page.getByRole('button', { name: 'Next package' })).toBeDisabled();
  });
});

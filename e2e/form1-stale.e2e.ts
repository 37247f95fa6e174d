import { expect, test, type Page, type TestInfo } from './support/test';
import { certifyForm, signIn } from './support/portal';

/**
 * Year-to-date after an amendment: amending September's form 1 leaves October's certified copy as it was, and the
 * dashboard then lists October (and any later certified month) with the corrected figures and a one-click
 * amendment, which recomputes them. Desktop files as alice (101), the phone as carol (102), as in filing.e2e.ts.
 */
const userFor = (info: TestInfo) => (info.project.name === 'mobile' ? 'carol' : 'alice');
const onPhone = (info: TestInfo) => info.project.name === 'mobile';
const SEASON_STATUS = "Status of the season's forms";
const seasonMonth = (page: Page, info: TestInfo, month: RegExp) =>
  page
    .getByRole(onPhone(info) ? 'list' : 'table', { name: SEASON_STATUS })
    .getByRole(onPhone(info) ? 'listitem' : 'row')
    .filter({ hasText: month });

/** From an amendment's edit page: save, certify, back on the dashboard. */
async function saveAndCertify(page: Page) {
  await page.getByRole('button', { name: 'Save and continue to certification' }).click();
  await expect(page).toHaveURL(/\/dashboard\/formCertification\//, { timeout: 60_000 });
  await certifyForm(page);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
}

test.describe('form 1 year-to-date after an amendment', () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({ actionTimeout: 30_000 });

  test('flags the later certified months with the corrected figures and amends them in one click', async ({
    page,
  }, info) => {
    await signIn(page, userFor(info));

    // Amend September: 1,000 lb more shipped inshell.
    await seasonMonth(page, info, /September/)
      .getByRole('link')
      .first()
      .click();
    await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_1\//);
    const text = (await page.locator('#f-shipments_inshell').textContent()) ?? '';
    const september = Number(text.replace(/ lb.*$/, '').replace(/,/g, ''));
    await page.getByRole('button', { name: /^(edit )?Amend$/ }).click();
    await page.getByLabel('Reason for the amendment').fill('A lot shipped on 30 September was left out');
    await page.getByRole('button', { name: 'Create amendment' }).click();
    await expect(page).toHaveURL(/\/dashboard\/formAmendCertification\//, { timeout: 60_000 });
    await page.getByLabel('Shipments this month, inshell').fill(String(september + 1000));
    await saveAndCertify(page);

    // October stays as certified, and is listed with its corrected previous month (September as amended).
    const card = page.getByTestId('stale-months');
    await expect(card.getByText('Certified months to correct')).toBeVisible();
    const october = card.getByRole('listitem').filter({ hasText: /October 2026/ });
    await expect(
      october.getByText(
        `Shipments in the previous month, inshell: Certified ${september.toLocaleString('en-US')}, Corrected ${(september + 1000).toLocaleString('en-US')}`,
      ),
    ).toBeVisible();
    await expect(
      october.getByText(/Shipments season to date, inshell: Certified [\d,]+, Corrected [\d,]+/),
    ).toBeVisible();

    // The form page of October says so too.
    await october.getByRole('link', { name: /Form 1: October 2026/ }).click();
    await expect(page.getByText('Season-to-date figures out of date').first()).toBeVisible();
    await page.goto('/dashboard');

    // One click per stale month (October, and November if it was certified earlier in the run) puts them right.
    await expect(card).toBeVisible();
    const amendButtons = card.getByRole('button', { name: /Amend \w+ \d{4}$/ });
    const stale = await amendButtons.count();
    expect(stale).toBeGreaterThanOrEqual(1);
    for (let left = stale; left > 0; left -= 1) {
      await amendButtons.first().click();
      await expect(page).toHaveURL(/\/dashboard\/formAmendCertification\//, { timeout: 60_000 });
      await expect(page.getByText('You are editing an amendment')).toBeVisible();
      await saveAndCertify(page);
      await expect(amendButtons).toHaveCount(left - 1);
    }
    // Read afresh: once the certified months have come back, nothing is listed any more.
    const staleRead = page.waitForResponse(
      (r) => r.url().includes('/jsonapi/node/apc_form_1') && decodeURIComponent(r.url()).includes('field_period_month'),
    );
    await page.reload();
    await staleRead;
    await expect(page.getByText('Due next')).toBeVisible();
    await expect(card).toHaveCount(0);
  });
});

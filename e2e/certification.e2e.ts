import { expect, test, type Page, type TestInfo } from './support/test';
import { CERTIFICATION_ATTEST, LANGUAGE_KEY, screenshot, signIn } from './support/portal';

/**
 * One certification statement, one step, one name (issue 37, item 9): a monthly form's certification page and a
 * transfer agreement (form 4) show the same statement with the company's name, the same "I have read" box and the
 * user's full name prefilled; in Arabic the statement is translated and the page right to left. Read only: nothing is
 * certified (desktop as alice of 101, the phone as carol of 102, on the shared database).
 */
const who = (info: TestInfo) =>
  info.project.name === 'mobile'
    ? { user: 'carol', name: 'Carol Jensen', company: 'Mesa Valley Pecans' }
    : { user: 'alice', name: 'Alice Moreno', company: 'Riverbend Pecan Co.' };
const statement = (company: string) =>
  `I am authorized to file this report on behalf of ${company}, and I certify that the information in it is true and complete to the best of my knowledge.`;

async function widths(page: Page, info: TestInfo, name: string, lang: string) {
  if (info.project.name !== 'desktop') return screenshot(page, info, name, lang);
  for (const width of [375, 800, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, info, `${name}-${width}`, lang);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('every form certifies with the one statement, the "I have read" box and the full name', async ({ page }, info) => {
  test.setTimeout(120_000);
  const { user, name, company } = who(info);
  await signIn(page, user);
  await page.getByRole('button', { name: 'Open form 2' }).click();
  await expect(page).toHaveURL(/\/dashboard\/forms\/apc_form_2\/[0-9a-f-]+$/);
  const certificationUrl = page.url().replace(/\/forms\/apc_form_2\//, '/formCertification/');
  await page.goto(certificationUrl);

  const step = page.getByTestId('certification-step');
  await expect(step.getByRole('heading', { name: 'Certification' })).toBeVisible();
  await expect(step.getByTestId('certification-statement')).toHaveText(statement(company));
  await expect(step.getByLabel('Name of the certifier')).toHaveValue(name);
  await expect(step.getByText('Please confirm that you have read the statement.')).toBeVisible();
  const attest = step.getByRole('checkbox', { name: CERTIFICATION_ATTEST });
  await attest.check();
  await expect(step.getByText('Please confirm that you have read the statement.')).toBeHidden();
  await widths(page, info, 'certification-form2', 'en');

  // A transfer agreement is certified in the same step, with the same words.
  await page.goto('/dashboard/transfers');
  await page.getByRole('button', { name: 'File a transfer agreement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New transfer agreement' });
  await expect(dialog.getByTestId('certification-statement')).toHaveText(statement(company));
  await expect(dialog.getByLabel('Name of the certifier')).toHaveValue(name);
  await expect(dialog.getByRole('checkbox', { name: CERTIFICATION_ATTEST })).not.toBeChecked();

  // In Arabic: the same step, translated, right to left, with the company's name.
  await page.evaluate(([key]) => localStorage.setItem(key, 'sa'), [LANGUAGE_KEY]);
  await page.goto(certificationUrl);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const arabic = page.getByTestId('certification-statement');
  await expect(arabic).toContainText('أنا مفوض بتقديم هذا التقرير نيابة عن');
  await expect(arabic).toContainText(company);
  await expect(page.getByRole('checkbox', { name: 'قرأت الإقرار أعلاه وأوافق عليه.' })).toBeVisible();
  await expect(page.getByLabel('اسم المُصادِق')).toHaveValue(name);
  await widths(page, info, 'certification-form2', 'sa');
  await page.evaluate(([key]) => localStorage.setItem(key, 'en'), [LANGUAGE_KEY]);
});

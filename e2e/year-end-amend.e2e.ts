import { expect, test } from './support/test';
import { confirmInDialog, signIn } from './support/portal';

/**
 * Form 5's August rule (986.175(a)) in the browser: dave (Gulf Coast Shellers, 103) amends a past season's
 * certified year-end form. The page shows the August Form 1's inventory and the difference on each basis; while they
 * differ "No, it agrees" cannot be chosen; with the same inventory it can. Desktop and mobile share the database, so
 * each amends its own season.
 */
test('an amendment of form 5 needs a reason and follows the August form 1', async ({ page }, info) => {
  // Many fields, autosaves and a visit to the August form 1: allow for a busy machine.
  test.setTimeout(150_000);
  const season = info.project.name === 'mobile' ? '2024-2025' : '2025-2026';
  await signIn(page, 'dave');
  await page.goto('/dashboard/year-end');
  await page.getByTestId(`season-${season}`).getByRole('button', { name: 'Amend' }).click();
  const dialog = page.getByRole('dialog', { name: 'Amend the year-end form' });
  const create = dialog.getByRole('button', { name: 'Create the amendment' });
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Reason for the amendment').fill('Cold-storage recount');
  await create.click();
  await expect(page).toHaveURL(/\/dashboard\/form5AmendCertification\/[0-9a-f-]+$/);
  await page.getByRole('button', { name: 'Edit the figures' }).click();
  await expect(page).toHaveURL(/\/dashboard\/year-end\/[0-9a-f-]+$/);

  const comparison = page.getByTestId('august-comparison');
  const figures = (await comparison.getByText(/Your August form 1 reported/).textContent()) ?? '';
  const [inshell, shelled] = [...figures.matchAll(/([\d,]+) lb/g)].map((m) => Number(m[1].replace(/,/g, '')));
  const inshellGroup = page.getByRole('group', { name: 'Inshell inventory at 31 August' });
  const shelledGroup = page.getByRole('group', { name: 'Shelled inventory' });
  const no = page.getByRole('radio', { name: 'No, it agrees' });

  // 1,000 lb more inshell than August reported: the difference is shown and "no" is not an answer.
  await inshellGroup.getByLabel('Improved varieties').fill(String(inshell + 1_000));
  await inshellGroup.getByLabel('Native / seedling').fill('0');
  await inshellGroup.getByLabel('Substandard').fill('0');
  await inshellGroup.getByLabel('Committed, domestic').fill('0');
  await inshellGroup.getByLabel('Committed, export').fill('0');
  await shelledGroup.getByLabel('Shelled inventory').fill(String(shelled));
  for (const [label, value] of [
    ['Committed, domestic', 0],
    ['Committed, export', 0],
    ['Halves', shelled],
    ['Pieces', 0],
    ['Work in progress', 0],
  ] as const) {
    await shelledGroup.getByLabel(label).fill(String(value));
  }
  await expect(comparison.getByText('Your August form 1 must be amended')).toBeVisible();
  await expect(comparison.getByText(/Inshell: .* \(difference \+1,000 lb\)/)).toBeVisible();
  await expect(no).toBeDisabled();
  await expect(page.getByRole('radio', { name: 'Yes, it must be amended' })).toBeChecked();
  // "Yes" leads to the season's August form 1, certified here: its amendment is started there.
  const amendNotice = page.getByTestId('august-amend');
  await expect(amendNotice).toContainText('You answered that the August form 1 must be amended.');
  const toAugust = amendNotice.getByRole('link', { name: 'Amend the August form 1' });
  const augustHref = (await toAugust.getAttribute('href')) ?? '';
  expect(augustHref).toMatch(/^\/dashboard\/forms\/apc_form_1\/[0-9a-f-]+\?amend=1$/);

  // The same inventory as August: the form agrees and "no" may be answered and saved.
  await inshellGroup.getByLabel('Improved varieties').fill(String(inshell));
  await expect(comparison.getByText("This form's inventory agrees with the August form 1.")).toBeVisible();
  await expect(no).toBeEnabled();
  // antd draws the radio as a button over a zero-size input: the visible label is what a person clicks.
  await page.getByText('No, it agrees', { exact: true }).click();
  await expect(no).toBeChecked();
  // A price keeps four places.
  await page.getByRole('group', { name: 'Average price paid' }).getByLabel('Improved varieties').fill('2.3475');
  await page.getByRole('button', { name: 'Save and continue to certification' }).click();
  await expect(page).toHaveURL(/\/dashboard\/form5AmendCertification\/[0-9a-f-]+$/);
  await expect(page.getByText('$2.3475')).toBeVisible();

  // The August form 1 the notice named opens with its amendment started (cancelled here: nothing changes).
  await page.goto(augustHref);
  const amendAugust = page.getByRole('dialog', { name: 'Amend this form' });
  await expect(amendAugust.getByLabel('Reason for the amendment')).toBeVisible();
  // The season's August: 2026 for 2025-2026 (desktop), 2025 for 2024-2025 (phone).
  await expect(page.getByText(`August ${season.slice(5)}`).first()).toBeVisible();
  await confirmInDialog(page, 'Cancel');
});

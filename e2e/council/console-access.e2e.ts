import { expect, test } from '../support/test';
import { settle, signIn } from '../support/portal';

// The council console is for staff only: a handler user never sees its menu, and its addresses say so plainly.
test('a handler user never sees the council console', async ({ page }) => {
  await signIn(page, 'alice');
  await settle(page);
  const nav = page.getByRole('navigation').or(page.locator('aside')).first();
  await expect(
    page
      .getByRole('menuitem', { name: 'Forms packages' })
      .or(page.getByRole('menuitem', { name: /Forms/ }))
      .first(),
  ).toBeVisible();
  await expect(nav.getByText('Council', { exact: true })).toHaveCount(0);
  await page.goto('/dashboard/council/users');
  await expect(page.getByRole('heading', { name: 'Council staff only' })).toBeVisible();
});

test('staff see every entry of the council console', async ({ page }) => {
  await signIn(page, 'staff');
  await settle(page);
  // Staff of no handler find the council's group open; opened if it is not.
  const council = page.getByRole('menuitem', { name: 'Council' });
  if ((await council.getAttribute('aria-expanded')) !== 'true') await council.click();
  for (const entry of [
    'Account requests',
    'Handlers',
    'Users',
    'Seasons and periods',
    'Submissions board',
    'Reminders',
    'Invoices and payments',
    'Reports and analytics',
    'Audit log',
  ]) {
    // The accessible name starts with the icon's label ("user-add Account requests"): match the entry's text at its
    // end.
    await expect(page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${entry}$`) })).toBeVisible();
  }
});

import { expect, test } from '@playwright/test';

test.describe('sign-in', () => {
  test('a wrong password shows Invalid Credentials', async ({ page }) => {
    await page.goto('/signin');
    await page.getByLabel(/username/i).fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Invalid Credentials')).toBeVisible();
  });

  test('alice signs in, lands on the dashboard and signs out', async ({ page }) => {
    await page.goto('/signin');
    await page.getByLabel(/username/i).fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('demo-pecans-2026');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(/Alice/).first()).toBeVisible();
  });

  test('a protected page sends a visitor to sign-in and back', async ({ page }) => {
    await page.goto('/dashboard/help');
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel(/username/i).fill('carol');
    await page.getByLabel('Password', { exact: true }).fill('demo-pecans-2026');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/help$/);
  });
});

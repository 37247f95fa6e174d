import { expect, test } from './support/test';

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

/** API requests of the page: the token, the JSON:API, the batch of reads, the portal's own endpoints, files. */
const API = /^\/(oauth|jsonapi|api|files|subrequests)(\/|$)/;

test.describe('sign-in to a full dashboard (issue 7: at most 5 API requests)', () => {
  test('alice reaches a full dashboard in at most 5 API requests, and a reload reads it in 1', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (API.test(url.pathname)) requests.push(`${req.method()} ${url.pathname}`);
    });
    const fullDashboard = async () => {
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.locator('main table tbody tr').first()).toBeVisible();
      await expect(page.locator('main .ant-skeleton, main .ant-spin-spinning')).toHaveCount(0);
      // Late reads count too: wait until the page has nothing left in flight.
      await page.waitForLoadState('networkidle');
    };

    await page.goto('/signin');
    await page.getByLabel(/username/i).fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('demo-pecans-2026');
    await page.waitForLoadState('networkidle');
    requests.length = 0;
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await fullDashboard();
    expect(requests.length, requests.join(', ')).toBeLessThanOrEqual(5);
    expect(requests).toEqual(['POST /oauth/token', 'POST /subrequests']);
    // The cards show their data: the packet card and the position report card are past their loading state.
    await expect(page.getByText(/Alice/).first()).toBeVisible();

    requests.length = 0;
    await page.reload();
    await fullDashboard();
    expect(requests, requests.join(', ')).toEqual(['POST /subrequests']);
  });
});

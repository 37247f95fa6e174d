import { expect, test } from '../support/test';
import { expectAccessible, settle, signIn, useLanguage, type Lang } from '../support/portal';

/**
 * axe-core (colour contrast included) on every page of the council console, tables filled from the demo data, in
 * English and in Arabic. One sign-in per language: staff sign in with a one-time code, good once.
 */
test.describe.configure({ timeout: 300_000 });

const PAGES = [
  ['home', '/dashboard'],
  ['account-requests', '/dashboard/council/account-requests'],
  ['handler-companies', '/dashboard/council/handler-companies'],
  ['users', '/dashboard/council/users'],
  ['seasons', '/dashboard/council/seasons'],
  ['board', '/dashboard/council/board'],
  ['reminders', '/dashboard/council/reminders'],
  ['billing', '/dashboard/council/billing'],
  ['publishing', '/dashboard/council/publishing'],
  ['audit-log', '/dashboard/council/audit-log'],
] as const;

for (const lang of ['en', 'sa'] as const satisfies readonly Lang[]) {
  test(`every council console page passes axe, tables and colours included (${lang})`, async ({ page }, info) => {
    await useLanguage(page, lang);
    await signIn(page, 'staff');
    for (const [name, path] of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await settle(page);
      await expectAccessible(page, info, `council-${name}-${lang}`);
    }
    // A filing's versions, reached from the board's first linked cell.
    await page.goto('/dashboard/council/board');
    await settle(page);
    await page.locator('[data-status] a').first().click();
    await expect(page).toHaveURL(/\/dashboard\/council\/board\/filing\//);
    await settle(page);
    await expectAccessible(page, info, `council-filing-versions-${lang}`);
  });
}

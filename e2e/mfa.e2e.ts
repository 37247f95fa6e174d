import { expect, test, type Page } from './support/test';
import * as OTPAuth from 'otpauth';
import {
  confirmInPopup,
  DEMO_PASSWORD,
  enterStaffCode,
  expectAccessible,
  fillSignIn,
  nextStaffCode,
  screenshot,
  settle,
  signIn,
  useLanguage,
} from './support/portal';

/**
 * Council staff sign in with a second factor (an authenticator code), set one up at their first sign-in, and every
 * user sees and ends their active sessions in My Profile.
 */

const codeOf = (secret: string) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: Date.now() });

async function staffApiToken(page: Page): Promise<string> {
  const res = await page.request.post('/oauth/token', {
    form: {
      grant_type: 'password',
      client_id: 'portal-web',
      username: 'staff',
      password: DEMO_PASSWORD,
      totp: await nextStaffCode(),
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

test.describe('staff second factor', () => {
  test('staff sign in with the code from their authenticator app; a wrong code is refused', async ({
    page,
  }, testInfo) => {
    await page.goto('/signin');
    await expect(page.getByText('PECANSTAFFDEMOKEY234567ABCDEFGHI')).toBeVisible();
    await fillSignIn(page, 'staff', DEMO_PASSWORD);
    await expect(page.getByRole('heading', { name: 'Authenticator code' })).toBeVisible();
    await settle(page);
    // Away from the buttons: the pointer is still where "Sign in" was, and a hovered button is not what axe should
    // judge.
    await page.mouse.move(0, 0);
    await screenshot(page, testInfo, 'signin-code', 'en');
    await expectAccessible(page, testInfo, 'signin-code');

    await page.locator('input[name="totp"]').fill('000000');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The code is not right' })).toBeVisible();
    await screenshot(page, testInfo, 'signin-code-wrong', 'en');
    await enterStaffCode(page);
    await expect(page).toHaveURL(/\/dashboard/);
  });

  test('the code step in Arabic', async ({ page }, testInfo) => {
    await useLanguage(page, 'sa');
    await page.goto('/signin');
    await fillSignIn(page, 'staff', DEMO_PASSWORD);
    await expect(page.getByRole('heading', { name: 'رمز المصادقة' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await settle(page);
    await screenshot(page, testInfo, 'signin-code', 'sa');
    await enterStaffCode(page);
    await expect(page).toHaveURL(/\/dashboard/);
  });

  test('a new staff user sets up the authenticator with the QR code, sees the recovery codes once, and uses one', async ({
    page,
    browser,
  }, testInfo) => {
    const username = `mfa${testInfo.project.name}${Date.now().toString(36)}`;
    const password = 'a-long-staff-password-1';
    const created = await page.request.post('/api/council/users', {
      headers: { authorization: `Bearer ${await staffApiToken(page)}` },
      data: { username, first_name: 'Nia', email: `${username}@example.com`, role: 'staff', password },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto('/signin');
    await fillSignIn(page, username, password);
    await expect(page.getByRole('heading', { name: 'Set up your authenticator app' })).toBeVisible();
    const qr = page.getByRole('img', { name: 'QR code to add the portal to an authenticator app' });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await qr.getAttribute('data-otpauth')).toContain(`secret=${secret}`);
    await settle(page);
    await screenshot(page, testInfo, 'signin-enroll', 'en');
    await expectAccessible(page, testInfo, 'signin-enroll');

    await page.locator('input[name="totp"]').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    const codes = (await page.getByTestId('recovery-codes').locator('li').allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await screenshot(page, testInfo, 'signin-recovery-codes', 'en');
    await page.getByRole('button', { name: 'I have saved them, continue' }).click();
    await expect(page).toHaveURL(/\/dashboard/);

    // Another browser signs in with a recovery code instead of the app.
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto('/signin');
    await fillSignIn(second, username, password);
    await second.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await second.locator('input[name="recovery_code"]').fill(codes[0]);
    await second.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(second).toHaveURL(/\/dashboard/);
    await other.close();
  });
});

test.describe('active sessions', () => {
  test('bob ends the session of another browser from My Profile; that browser is signed out at its next request', async ({
    page,
    browser,
  }, testInfo) => {
    const other = await browser.newContext({
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
    });
    const otherPage = await other.newPage();
    await signIn(otherPage, 'bob');

    await signIn(page, 'bob');
    await page.goto('/dashboard/my-profile');
    const card = page.getByTestId('active-sessions');
    await expect(card.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
    const current = card.locator('[data-session="current"]');
    await expect(current).toHaveCount(1);
    await expect(current.getByText('This device')).toBeVisible();
    const firefox = card.locator('[data-session="other"]').filter({ hasText: 'Firefox on Windows' }).first();
    await expect(firefox).toBeVisible();
    await settle(page);
    await screenshot(page, testInfo, 'my-profile-sessions', 'en');

    await firefox.getByRole('button', { name: 'End session' }).click();
    await expect(page.getByText('End this session?')).toBeVisible();
    await screenshot(page, testInfo, 'my-profile-sessions-confirm', 'en', false);
    await confirmInPopup(page, 'End session');
    await expect(page.getByText('The session has ended.')).toBeVisible();
    await expect(card.locator('[data-session="other"]').filter({ hasText: 'Firefox on Windows' })).toHaveCount(0);

    // The other browser's next request is refused: it is back at sign-in.
    await otherPage.goto('/dashboard/invoices');
    await expect(otherPage).toHaveURL(/\/signin|\/$/);
    await expect(otherPage.locator('input[name="username"]')).toBeVisible();
    await other.close();

    // This browser is still signed in.
    await page.reload();
    await expect(current.getByText('This device')).toBeVisible();
  });
});

import AxeBuilder from '@axe-core/playwright';
import { errors, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as OTPAuth from 'otpauth';

/** Helpers shared by the frame's browser tests. */
export const DEMO_PASSWORD = 'demo-pecans-2026';
export const LANGUAGE_KEY = 'portal_language';
export const THEME_KEY = 'portal_theme';
/** Ports of the helpers started by scripts/e2e-server.mjs, just below the portal's. */
export const PORTAL_PORT = Number(process.env.E2E_PORT ?? 3199);
export const MAIL_API = mailApiOf(PORTAL_PORT);
/**
 * The council suite's own server (its own database, mail and OpenID helpers), ten ports below: playwright.config.ts.
 */
export const COUNCIL_PORT = PORTAL_PORT - 10;
export const COUNCIL_MAIL_API = mailApiOf(COUNCIL_PORT);

/** The catch-all mail server's HTTP API of the portal server on a port (scripts/e2e-server.mjs puts it two below). */
export function mailApiOf(portalPort: number): string {
  return `http://127.0.0.1:${portalPort - 2}/messages`;
}
export const OIDC_ISSUER = `http://127.0.0.1:${PORTAL_PORT - 3}`;

export type Lang = 'en' | 'zh' | 'es' | 'fr' | 'it' | 'sa';

/** Start the page in a language (before any script runs), as the switcher would have stored it. */
export async function useLanguage(page: Page, lang: Lang): Promise<void> {
  await page.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem('__e2e_lang_set')) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('__e2e_lang_set', '1');
      }
    },
    [LANGUAGE_KEY, lang] as const,
  );
}

/** The demo staff user's authenticator key (server/src/demo/data.ts, README). */
export const DEMO_STAFF_TOTP_SECRET = 'PECANSTAFFDEMOKEY234567ABCDEFGHI';
const STEP_MS = 30_000;

/**
 * The next code of the demo staff user that the server on `port` still accepts. The server takes a step either
 * side of now but never a step at or before the last one used (RFC 6238 replay protection), so the helper keeps the
 * last step it used in a file per server port (all tests of a run, across worker restarts) and waits for the next
 * step when the three around now are used up.
 */
export async function nextStaffCode(port: number | string = PORTAL_PORT): Promise<string> {
  const file = join(tmpdir(), `portal-e2e-totp-${port}`);
  let last = 0;
  try {
    last = Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    // First staff sign-in of this machine on this port.
  }
  for (;;) {
    const now = Date.now();
    // A few seconds of margin: the step must still be inside the window when the server checks it.
    const step = Math.max(last + 1, Math.floor((now + 5_000) / STEP_MS) - 1);
    if (step <= Math.floor(now / STEP_MS) + 1) {
      writeFileSync(file, String(step));
      return OTPAuth.TOTP.generate({
        secret: OTPAuth.Secret.fromBase32(DEMO_STAFF_TOTP_SECRET),
        timestamp: step * STEP_MS,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, (step - 1) * STEP_MS - now + 50));
  }
}

export async function signIn(page: Page, username = 'alice', password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/signin');
  await fillSignIn(page, username, password);
  if (username === 'staff') await enterStaffCode(page);
  // The first sign-in of a run waits for the dashboard's chunks on a cold server.
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 60_000 });
}

/**
 * The code step of a staff sign-in; a code the server refuses (used by a sign-in this helper did not see) is retried.
 */
export async function enterStaffCode(page: Page): Promise<void> {
  const input = page.locator('input[name="totp"]');
  await expect(input).toBeVisible();
  const port = new URL(page.url()).port;
  for (let attempt = 1; ; attempt += 1) {
    await input.fill(await nextStaffCode(port));
    await page.locator('form button[type="submit"]').click();
    const outcome = await Promise.race([
      page.waitForURL(/\/dashboard/).then(() => 'in' as const),
      page
        .getByRole('alert')
        .first()
        .waitFor()
        .then(() => 'refused' as const),
    ]);
    if (outcome === 'in' || attempt === 3) return;
  }
}

export async function fillSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

/**
 * Sign out through the account menu, as a person does once the page has loaded (a tap while the dashboard is still
 * arriving once went nowhere on a phone-sized page in CI), and land on the sign-in page.
 */
export async function signOut(page: Page): Promise<void> {
  await settle(page);
  const account = page.getByRole('button', { name: /^Account of / });
  await account.click();
  const logout = page.getByRole('menuitem', { name: 'Logout' });
  await expect(logout).toBeVisible();
  // The menu opens where antd first draws it and is then aligned under the button: on a loaded machine it once stayed
  // still at the top of the page long enough for Playwright to call it stable, moved, and the tap at its old place
  // landed on the top bar (a tap outside the menu: closed, no logout; CI of 2026-11-23). Tap it once it is in place.
  const below = async () => {
    const [menu, button] = await Promise.all([logout.boundingBox(), account.boundingBox()]);
    return !!menu && !!button && menu.y >= button.y + button.height - 1;
  };
  // Even so, on a loaded machine a tap once landed while the menu was still sliding in (CI of 2026-11-24: Playwright
  // waited for it to stand still, tapped, and nothing was sent): as a person would, open the menu again and tap again.
  const signedOut = /\/(signin)?$/;
  await expect(async () => {
    if (signedOut.test(page.url())) return; // the last tap did sign out, later than the wait below
    if (!(await logout.isVisible())) await account.click({ timeout: 5_000 });
    await expect.poll(below).toBe(true);
    await logout.click({ timeout: 5_000 });
    await expect(page).toHaveURL(signedOut, { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page).toHaveURL(signedOut);
  await expect(page.getByRole('heading', { name: 'Handler Portal' })).toBeVisible();
}

/**
 * Picks an option of an antd Select that searches as one types: types into the field, taps the option in the open
 * list, and checks the field now shows it. A tap while the list was still sliding in once chose nothing (CI of
 * 2026-11-24, the council's new user form): as a person would, type and tap again.
 */
export async function pickOption(page: Page, field: Locator, typed: string, option: string): Promise<void> {
  // The select around the field (a `has:` filter would look for the whole of `field`'s chain inside it).
  const container = field.locator(
    `xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]`,
  );
  await expect(async () => {
    await field.fill(typed);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option).first().click({ timeout: 5_000 });
    await expect(container.locator('.ant-select-selection-item')).toHaveText(option, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Taps the confirming button of an open antd Popconfirm and waits until it has closed. Two things seen in CI: a tap
 * while the popup was still zooming in did nothing (2026-11-24 evening, removing a form 2 row at phone width: no
 * request sent, the popup still open); and a popup just shown was hidden for a moment, while antd aligned it, and shown
 * again (2026-11-25, removing a form 3 row: the helper saw the button hidden, took the popup for closed without a tap,
 * and nothing was removed). So, as a person would: tap whenever the button is there, and count the popup closed only
 * after a tap and once it has stayed closed for a moment. A second tap on a button already at work is harmless: antd
 * ignores taps on a loading button, and the popup stays open with it until the action has finished.
 */
export async function confirmInPopup(page: Page, name: string): Promise<void> {
  const button = page.getByRole('tooltip').getByRole('button', { name, exact: true });
  await expect(button).toBeVisible();
  let tapped = false;
  await expect(async () => {
    if (await button.isVisible()) {
      await button.click({ timeout: 5_000 });
      tapped = true;
    }
    expect(tapped, 'the confirming button was tapped').toBe(true);
    await expect(button).toBeHidden({ timeout: 5_000 });
    await page.waitForTimeout(500);
    expect(await button.isVisible(), 'the popup stayed closed').toBe(false);
  }).toPass({ timeout: 60_000 });
}

/**
 * Presses a button of the open antd dialog (a Modal) and waits until the dialog has closed. antd zooms a dialog in
 * from the pointer, and a press while it still moves can do nothing, as with the popups above (CI, twice: the form 5
 * certification's 'Yes, certify' pressed and its page still there 10 s later, the log unable to say whether the
 * request was sent; not seen here in 8 runs under load). So: wait until the dialog stands still, press, and press
 * again only while the dialog is open and its button not at work (antd shows the button loading while the action
 * runs, and a loading button ignores presses).
 */
export async function confirmInDialog(page: Page, name: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  const button = dialog.getByRole('button', { name, exact: true });
  await expect(button).toBeVisible();
  await expect(async () => {
    await expect(page.locator('.ant-modal[class*="ant-zoom-"]')).toHaveCount(0, { timeout: 2_000 });
    if (
      (await button.isVisible()) &&
      !(await button.evaluate((b) => b.classList.contains('ant-btn-loading'), undefined, { timeout: 1_000 }))
    )
      await button.click({ timeout: 5_000 });
    await expect(dialog).toBeHidden({ timeout: 10_000 });
  }).toPass({ timeout: 60_000 });
}

/** Wait until lazy chunks, fonts and spinners have settled. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready);
}

/** axe-core on the page as it is: no serious or critical violations. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(bad, null, 2), contentType: 'application/json' });
  }
  const summary = bad.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 3).join(' ') ?? ''}`)
        .join('\n')}`,
  );
  expect(summary, `axe on ${name}`).toEqual([]);
}

/** A full-page screenshot at test-results/screenshots/<page>-<lang>-<project>.png, also attached to the report. */
export async function screenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  lang: string,
  fullPage = true,
): Promise<void> {
  const file = join(testInfo.project.outputDir, 'screenshots', `${name}-${lang}-${testInfo.project.name}.png`);
  mkdirSync(dirname(file), { recursive: true });
  // On a loaded 2-core CI machine a full-page capture once took over 30 s, and once hung after the fonts had loaded
  // until its 90 s ran out, with the page showing what it should: a capture that runs out of time is tried once more.
  const capture = () => page.screenshot({ path: file, fullPage, animations: 'disabled', timeout: 40_000 });
  await capture().catch((error: unknown) => {
    if (!(error instanceof errors.TimeoutError)) throw error;
    return capture();
  });
  await testInfo.attach(`${name}-${lang}`, { path: file, contentType: 'image/png' });
}

export interface Mail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** The newest message for an address caught by the e2e mail server, waiting for it to arrive. */
export async function waitForMail(to: string, after = 0, mailApi = MAIL_API): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${mailApi}?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as Mail[];
        found = list.filter((m) => m.id > after).at(-1);
        return Boolean(found);
      },
      { message: `a mail to ${to}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

export async function lastMailId(mailApi = MAIL_API): Promise<number> {
  const res = await fetch(mailApi);
  const list = (await res.json()) as Mail[];
  return list.at(-1)?.id ?? 0;
}

/** Whether the server answers a route other than with 404 (endpoints that another engineer is adding). */
export async function endpointExists(baseURL: string, method: string, path: string, body?: unknown): Promise<boolean> {
  const res = await fetch(new URL(path, baseURL), {
    method,
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.status !== 404 && res.status !== 405;
}

/** The one certification statement of every form, and its "I have read" box (web: CertificationStep). */
export const CERTIFICATION_ATTEST = 'I have read the statement above and I agree to it.';

/** Makes the certification on a form's certification page: ticks the "I have read" box, presses Certify, confirms. */
export async function certifyForm(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: CERTIFICATION_ATTEST }).check();
  await page.getByRole('button', { name: 'Certify', exact: true }).click();
  await confirmInDialog(page, 'Yes, certify');
}

import { expect, test, type Page, type TestInfo } from './support/test';
import { LANGUAGE_KEY, screenshot, signIn } from './support/portal';

/**
 * Drafts that save themselves (issue 37, points 1, 2, 3 and 12): nothing typed is lost to a reload, a link or a
 * portal that cannot be reached; the rules between fields are named live, by label; the session's end is said.
 * As in filing.e2e.ts, the desktop project files as alice (handler 101) and the phone as carol (handler 102). What a
 * test types it takes back before it ends, so that the filing journeys find the drafts as the demo made them.
 */
const userFor = (info: TestInfo) => (info.project.name === 'mobile' ? 'carol' : 'alice');

const SAVED = /Saved at \d/;
const OFFLINE =
  'Not saved: the portal cannot be reached. Your figures are kept in this browser and will be saved when the connection is back.';

async function openDraftForm(page: Page, n: 1 | 2 | 3): Promise<string> {
  await page.getByRole('button', { name: `Open form ${n}` }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/forms/apc_form_${n}/`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Form ${n}:`) })).toBeVisible({
    timeout: 30_000,
  });
  return page.url();
}

/** The pounds a figure shows ('12,345 lb inshell' -> 12345). */
async function pounds(figure: ReturnType<Page['locator']>): Promise<number> {
  await expect(figure).toHaveText(/^[\d,]+ lb/);
  return Number(((await figure.textContent()) ?? '').replace(/ lb.*$/, '').replace(/,/g, ''));
}

/** Screenshots at 375, 800 and 1366 px on the desktop project (the phone project takes its own width). */
async function shots(page: Page, info: TestInfo, name: string, lang: string, fullPage = true) {
  if (info.project.name !== 'desktop') return screenshot(page, info, name, lang, fullPage);
  const size = page.viewportSize()!;
  for (const width of [375, 800, 1366]) {
    await page.setViewportSize({ width, height: size.height });
    await page.waitForTimeout(300); // antd's grid follows the width on the next frame
    await screenshot(page, info, `${name}-${width}`, lang, fullPage);
  }
  await page.setViewportSize(size);
}

/** A reload with unsaved values: the browser asks first (beforeunload); the person says leave. */
async function reloadAndLeave(page: Page) {
  const asked: string[] = [];
  const onDialog = (dialog: import('@playwright/test').Dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  };
  page.on('dialog', onDialog);
  await page.reload();
  page.off('dialog', onDialog);
  return asked;
}

test.describe('drafts that save themselves', () => {
  test.describe.configure({ timeout: 180_000 });
  test.use({ actionTimeout: 30_000 });

  test('form 1: live season to date before saving, asked before leaving, saved by itself, kept over a reload', async ({
    page,
  }, info) => {
    await signIn(page, userFor(info));
    const url = await openDraftForm(page, 1);
    const native = page.getByLabel('Receipts of native/seedling pecans');
    const before = await native.inputValue();
    // Point 3: the never-typed draft already shows the season's earlier months, as the server will compute them.
    const improved = await pounds(page.getByTestId('computed-receipts_improved'));
    expect(await pounds(page.getByTestId('computed-receipts_ytd_improved'))).toBeGreaterThan(improved);
    expect(await pounds(page.getByTestId('computed-shipments_inshell_prev_month'))).toBeGreaterThan(0);

    // A link inside the portal before the portal has the figure (its writes held back here, as on a slow line):
    // asked first; staying keeps the figures.
    await page.route('**/jsonapi/node/apc_form_1/**', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await native.fill('4321');
    await expect(page.getByTestId('save-status')).toHaveText(/Changes not saved yet|Saving…|Not saved/);
    await page.getByRole('link', { name: 'Forms packages' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave this page?' });
    await expect(dialog).toBeVisible();
    await shots(page, info, 'form1-leave-question', 'en', false);
    await dialog.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(url);
    await expect(native).toHaveValue('4,321');
    // Once the portal answers again the draft saves itself (retried every few seconds), and a reload shows it.
    await page.unroute('**/jsonapi/node/apc_form_1/**');
    await expect(page.getByTestId('save-status')).toHaveText(SAVED, { timeout: 30_000 });
    // Typing again: saved a few seconds after typing stops, without a click.
    await native.fill('4322');
    await expect(page.getByTestId('save-status')).toHaveText(/Changes not saved yet|Saving…/);
    await expect(page.getByTestId('save-status')).toHaveText(SAVED, { timeout: 20_000 });
    await page.reload();
    await expect(native).toHaveValue('4,322');
    await expect(page.getByText(/^Restored unsaved changes/)).toHaveCount(0);

    // A plain "Save draft", then the figure as it was.
    await native.fill(before);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByTestId('save-status')).toHaveText(SAVED);
    await screenshot(page, info, 'form1-saved', 'en');
    await page.getByRole('link', { name: 'Forms packages' }).click();
    await expect(page).toHaveURL(/\/dashboard\/forms$/);
  });

  test('the portal cannot be reached: said in plain words, kept in the browser, restored, saved when back', async ({
    page,
    context,
  }, info) => {
    await signIn(page, userFor(info));
    await openDraftForm(page, 1);
    const field = page.getByLabel('Shipments this month, inshell');
    const before = await field.inputValue();

    await context.setOffline(true);
    await field.fill('777');
    await expect(page.getByTestId('save-status')).toHaveText(OFFLINE, { timeout: 20_000 });
    await expect(page.getByText('Failed to fetch')).toHaveCount(0);
    await shots(page, info, 'form1-offline', 'en');
    // Back online: saved without a click.
    await context.setOffline(false);
    await expect(page.getByTestId('save-status')).toHaveText(SAVED, { timeout: 30_000 });

    // The portal stops answering writes; the typed figure survives a reload in this browser and is then saved.
    await page.route('**/jsonapi/node/apc_form_1/**', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await field.fill('888');
    await expect(page.getByTestId('save-status')).toHaveText(OFFLINE, { timeout: 20_000 });
    expect(await reloadAndLeave(page)).toEqual(['beforeunload']);
    await expect(page.getByText(/^Restored unsaved changes from /)).toBeVisible({ timeout: 30_000 });
    await expect(field).toHaveValue('888');
    await shots(page, info, 'form1-restored', 'en');
    await page.unroute('**/jsonapi/node/apc_form_1/**');
    await expect(page.getByTestId('save-status')).toHaveText(SAVED, { timeout: 30_000 });
    await expect(page.getByText(/^Restored unsaved changes from /)).toHaveCount(0);
    await page.reload();
    await expect(field).toHaveValue('888');

    // Discard puts the portal's figures back.
    await page.route('**/jsonapi/node/apc_form_1/**', (route) =>
      route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await field.fill('999');
    await expect(page.getByTestId('save-status')).toHaveText(OFFLINE, { timeout: 20_000 });
    await reloadAndLeave(page);
    await page.getByRole('button', { name: 'Discard' }).click();
    await expect(field).toHaveValue('888');
    await page.unroute('**/jsonapi/node/apc_form_1/**');

    await field.fill(before);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByTestId('save-status')).toHaveText(SAVED);
  });

  for (const lang of ['en', 'sa'] as const) {
    test(`form 2 (${lang}): a Mexico quantity without its date is named live by label; certification never says field_`, async ({
      page,
    }, info) => {
      await signIn(page, userFor(info));
      const url = await openDraftForm(page, 2);
      if (lang === 'sa') {
        await page.evaluate(([key]) => localStorage.setItem(key, 'sa'), [LANGUAGE_KEY]);
        await page.reload();
        await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      }
      const text =
        lang === 'en'
          ? {
              pounds: 'Inshell sent to Mexico',
              message: 'Date shipped to Mexico is required when Inshell sent to Mexico is more than 0.',
              saved: SAVED,
              certify: 'Certify',
            }
          : {
              pounds: 'بقشره مُرسل إلى المكسيك',
              message: '«تاريخ الشحن إلى المكسيك» مطلوب عندما تكون «بقشره مُرسل إلى المكسيك» أكبر من 0.',
              saved: /حُفظ في/,
              certify: 'مصادقة',
            };
      const mexico = page.getByLabel(text.pounds, { exact: true });
      const before = await mexico.inputValue();
      await mexico.fill('1500');
      await expect(page.getByText(text.message)).toBeVisible();
      await expect(page.locator('body')).not.toContainText('field_');
      if (lang === 'en')
        await expect(page.getByRole('button', { name: 'Save and continue to certification' })).toBeDisabled();
      // The draft is saved all the same (a draft may be incomplete).
      await expect(page.getByTestId('save-status')).toHaveText(text.saved, { timeout: 20_000 });
      await shots(page, info, 'form2-live-rule', lang);

      // The certification page (its address typed by hand) names the problem before any press, by label, and
      // leads to the field; Certify waits for it.
      const id = url.split('/').pop()!;
      await page.goto(`/dashboard/formCertification/${id}`);
      const problem = page.getByRole('link', { name: text.message });
      await expect(problem).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: text.certify, exact: true })).toBeDisabled();
      await expect(page.locator('body')).not.toContainText('field_');
      await shots(page, info, 'form2-certify-problems', lang);
      await problem.click();
      await expect(page).toHaveURL(/#f-mexico_ship_date$/);
      await expect(page.locator('#f-mexico_ship_date')).toBeFocused();

      await page.getByLabel(text.pounds, { exact: true }).fill(before);
      await expect(page.getByText(text.message)).toHaveCount(0);
      await expect(page.getByTestId('save-status')).toHaveText(text.saved, { timeout: 20_000 });
    });
  }

  test('a session ended elsewhere lands on sign-in with "Your session has ended"', async ({ page }, info) => {
    await signIn(page, userFor(info));
    // Another device's "sign out everywhere", as the server sees it: the refresh token's family is revoked.
    await page.evaluate(async () => {
      const raw = localStorage.getItem('oauth_token') ?? sessionStorage.getItem('oauth_token');
      const token = JSON.parse(raw!) as { access_token: string; refresh_token: string };
      await fetch('/oauth/revoke', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${token.access_token}` },
        body: new URLSearchParams({
          client_id: 'portal-web',
          token: token.refresh_token,
          token_type_hint: 'refresh_token',
        }),
      });
    });
    await page.reload();
    await expect(page).toHaveURL(/\/signin/, { timeout: 30_000 });
    await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();
    await shots(page, info, 'signin-session-ended', 'en', false);
  });
});

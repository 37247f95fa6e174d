import { expect, test, type Page } from './support/test';
import { expectAccessible, screenshot, settle, signIn, useLanguage, type Lang } from './support/portal';

/**
 * Every page of the frame in English and Arabic: a screenshot (test-results/screenshots/<page>-<lang>-<project>.png)
 * and an axe-core check with no serious or critical violation.
 */

interface FramePage {
  name: string;
  path: string;
  signedIn?: boolean;
  /** What shows when the page is ready, per language. */
  ready: Record<'en' | 'sa', string>;
  /** Something to do before the picture (open a drawer...). */
  before?: (page: Page) => Promise<void>;
}

const PAGES: FramePage[] = [
  { name: 'signin', path: '/signin', ready: { en: 'Handler Portal', sa: 'بوابة المتعاملين' } },
  { name: 'signup', path: '/signup', ready: { en: 'Create an account', sa: 'إنشاء حساب' } },
  { name: 'forgotpassword', path: '/forgotpassword', ready: { en: 'Forgot password', sa: 'نسيت كلمة المرور' } },
  {
    name: 'resetpassword',
    path: '/resetpassword?token=e2e-example-token',
    ready: { en: 'Reset password', sa: 'إعادة تعيين كلمة المرور' },
  },
  {
    name: 'confirm-email',
    path: '/confirm-email?token=e2e-example-token',
    ready: { en: 'Confirm your e-mail address', sa: 'تأكيد عنوان بريدك الإلكتروني' },
  },
  { name: 'unlock', path: '/unlock?token=e2e-example-token', ready: { en: 'Sign in again', sa: 'تسجيل الدخول مجددًا' } },
  {
    name: 'sso-callback',
    path: '/auth0loginCallback?code=x&state=y',
    ready: { en: 'Handler Portal', sa: 'بوابة المتعاملين' },
  },
  { name: 'not-found', path: '/no-such-page', ready: { en: 'Looks like you got lost', sa: 'يبدو أنك ضللت الطريق' } },
  { name: 'dashboard', path: '/dashboard', signedIn: true, ready: { en: '', sa: '' } },
  {
    name: 'help',
    path: '/dashboard/help',
    signedIn: true,
    ready: { en: 'Help: filing with the Council', sa: 'المساعدة: تقديم التقارير إلى المجلس' },
  },
  { name: 'my-profile', path: '/dashboard/my-profile', signedIn: true, ready: { en: 'My Profile', sa: 'ملفي الشخصي' } },
  {
    name: 'dashboard-not-found',
    path: '/dashboard/no-such-page',
    signedIn: true,
    ready: { en: 'Looks like you got lost', sa: 'يبدو أنك ضللت الطريق' },
  },
  {
    name: 'theme-settings',
    path: '/dashboard/help',
    signedIn: true,
    ready: { en: 'Help: filing with the Council', sa: 'المساعدة: تقديم التقارير إلى المجلس' },
    before: async (page) => {
      await page
        .locator('header button[aria-label]')
        .filter({ has: page.locator('.anticon-bg-colors') })
        .click();
      await expect(page.getByRole('dialog').filter({ hasText: /Theme settings|إعدادات المظهر/ })).toBeVisible();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'menu-drawer',
    path: '/dashboard/help',
    signedIn: true,
    ready: { en: '', sa: '' },
    before: async (page) => {
      const open = page.locator('header button[aria-expanded]').first();
      await open.click();
      // On a phone the menu is a drawer whose code loads on this first tap: wait until it is open, then until its
      // slide-in has finished (axe mid-animation reads half-faded colours).
      if ((page.viewportSize()?.width ?? 1366) <= 767) await expect(page.locator('.ant-drawer-open')).toBeVisible();
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await page.waitForTimeout(400);
    },
  },
];

for (const lang of ['en', 'sa'] as const satisfies readonly Lang[]) {
  test.describe(`pages in ${lang === 'en' ? 'English' : 'Arabic'}`, () => {
    for (const p of PAGES) {
      test(`${p.name} (${lang}): screenshot and no serious accessibility violations`, async ({ page }, testInfo) => {
        await useLanguage(page, lang);
        if (p.signedIn) await signIn(page, 'alice');
        await page.goto(p.path);
        await expect(page.locator('html')).toHaveAttribute('dir', lang === 'sa' ? 'rtl' : 'ltr');
        if (p.ready[lang]) await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(p.ready[lang]);
        else await expect(page.locator('h1').first()).toBeVisible();
        await settle(page);
        if (p.before) await p.before(page);
        // An open drawer is fixed to the window: picture the window, not the whole page.
        await screenshot(page, testInfo, p.name, lang, !p.before);
        await expectAccessible(page, testInfo, `${p.name}-${lang}`);
        // Nothing runs out of the window sideways.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
      });
    }
  });
}

import { expect, test, type Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { useLanguage, type Lang } from './support/portal';

/**
 * The first load of /signin stays under 200 KB of gzip JavaScript, in English and in Arabic, and pulls in no
 * code of other pages (the app is split by route). Sizes are the bodies gzip-compressed at level 9, as Vite
 * reports them.
 */
const BUDGET = 200 * 1024;

async function firstLoadScripts(page: Page, path: string): Promise<{ url: string; gzip: number }[]> {
  const scripts: Promise<{ url: string; gzip: number }>[] = [];
  page.on('response', (res) => {
    const url = res.url();
    if (res.request().resourceType() === 'script' || /\.m?js(\?|$)/.test(url)) {
      scripts.push(res.body().then((b) => ({ url: new URL(url).pathname, gzip: gzipSync(b, { level: 9 }).length })));
    }
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('input[name="username"]')).toBeVisible();
  return Promise.all(scripts);
}

test.describe('first load budget', () => {
  test.skip(({ isMobile }) => isMobile, 'the bundle is the same at every width');

  for (const lang of ['en', 'sa'] as Lang[]) {
    test(`/signin in ${lang} loads under 200 KB gzip JS and no other page's code`, async ({ page }, testInfo) => {
      await useLanguage(page, lang);
      const scripts = await firstLoadScripts(page, '/signin');
      const total = scripts.reduce((n, s) => n + s.gzip, 0);
      const lines = scripts.map((s) => `${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${s.url}`).join('\n');
      await testInfo.attach(`signin-${lang}-scripts.txt`, { body: `${lines}\n${(total / 1024).toFixed(1)} KB total`, contentType: 'text/plain' });
      console.log(`/signin (${lang}): ${(total / 1024).toFixed(1)} KB gzip JS in ${scripts.length} files\n${lines}`);
      expect(total, `gzip JS of /signin in ${lang}`).toBeLessThan(BUDGET);
      // Split by route: the chunks of the other pages are not part of the first load.
      const names = scripts.map((s) => s.url).join(' ');
      for (const other of ['signup-page', 'forgot-password-page', 'reset-password-page', 'dashboard-layout', 'dashboard-home', 'help-page', 'my-profile-page', 'theme-drawer', 'login-sequence']) {
        expect(names, `${other} is not loaded with /signin`).not.toContain(other);
      }
    });
  }
});

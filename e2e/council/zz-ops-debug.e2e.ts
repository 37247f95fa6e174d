import { test } from '@playwright/test';
import { signIn } from '../support/portal';
test('debug', async ({ page }) => {
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message, e.stack?.split('\n').slice(0, 4).join(' | ')));
  page.on('console', (m) => m.type() === 'error' && console.log('CONSOLE', m.text().slice(0, 400)));
  await signIn(page, 'staff');
  for (const p of ['audit-log', 'board', 'billing', 'reminders', 'publishing']) {
    console.log('PAGE', p);
    await page.goto(`/dashboard/council/${p}`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/ops-shot-${p}.png`, fullPage: true });
  }
});

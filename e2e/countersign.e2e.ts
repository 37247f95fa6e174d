import { expect, test, type Locator, type Page } from './support/test';
import { screenshot, signIn, useLanguage, type Lang } from './support/portal';

/**
 * Issue 37 item 6: a transfer to a handler outside the directory (Gulf Coast Shellers, 103), the receiver's
 * dashboard notice, and the countersignature with name, title and statement. The sender is alice (101) on desktop
 * and carol (102) on the phone, in the current season (the only one open: a countersignature moves assessments
 * only there); each run cancels its agreement at the end, so the next run (and the other project) starts clean.
 */
const TEXTS = {
  en: {
    transfers: 'Transfers (form 4)',
    file: 'File a transfer agreement',
    newTitle: 'New transfer agreement',
    receiving: 'Receiving handler',
    season: 'Season',
    month: 'First transfer month',
    name: 'Name of the certifier',
    title: 'Title of the certifier',
    fileOk: 'File and certify',
    awaiting: 'One transfer agreement awaits your countersignature.',
    review: 'Review and countersign on the Transfers page',
    countersign: 'Countersign',
    countersignTitle: 'Countersign the agreement',
    countersigned: 'The agreement was countersigned.',
    signedByBoth: 'Signed by both',
    awaitingReceiver: 'Awaiting receiver',
    cancel: 'Cancel agreement',
    cancelOk: 'Yes, cancel it',
    cancelDone: 'The agreement was cancelled.',
    account: /^Account of /,
    logout: 'Logout',
  },
  sa: {
    transfers: 'التحويلات (النموذج 4)',
    file: 'تقديم اتفاقية تحويل',
    newTitle: 'اتفاقية تحويل جديدة',
    receiving: 'المناول المستلم',
    season: 'الموسم',
    month: 'شهر أول تحويل',
    name: 'اسم المُصادِق',
    title: 'منصب المُعتمِد',
    fileOk: 'تقديم واعتماد',
    awaiting: 'اتفاقية تحويل واحدة بانتظار مصادقتكم.',
    review: 'راجِعوا وصادِقوا في صفحة التحويلات',
    countersign: 'المصادقة',
    countersignTitle: 'المصادقة على الاتفاقية',
    countersigned: 'تمت المصادقة على الاتفاقية.',
    signedByBoth: 'موقّعة من الطرفين',
    awaitingReceiver: 'بانتظار المستلم',
    cancel: 'إلغاء الاتفاقية',
    cancelOk: 'نعم، ألغِها',
    cancelDone: 'أُلغيت الاتفاقية.',
    account: /^حساب /,
    logout: 'تسجيل الخروج',
  },
} as const;

const SEASON = '2026-2027';
const MONTH = '2026-12';

/** The agreement's card on the transfers page of the current season (the page opens on it). */
const agreementCard = (page: Page, from: string) =>
  page.locator('.ant-card-type-inner').filter({ hasText: from }).filter({ hasText: 'Gulf Coast Shellers' });

async function settle(page: Page) {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
}

for (const lang of ['en', 'sa'] as const satisfies readonly Lang[]) {
  test(`a transfer to Gulf Coast Shellers, outside the directory, is countersigned with name, title and statement (${lang})`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const x = TEXTS[lang];
    const phone = testInfo.project.name === 'mobile';
    const sender = phone ? 'carol' : 'alice';
    const senderName = phone ? 'Mesa Valley Pecans' : 'Riverbend Pecan Co.';
    await useLanguage(page, lang);

    // The sender finds Gulf Coast Shellers (103) in the picker, though the directory does not show it.
    await signIn(page, sender);
    await page.goto('/dashboard/transfers');
    await expect(page.getByRole('heading', { name: x.transfers })).toBeVisible();
    await page.getByRole('button', { name: x.file }).click();
    const dialog = page.getByRole('dialog', { name: x.newTitle });
    const box = dialog.getByRole('combobox', { name: x.receiving });
    await box.click();
    await box.fill('gulf');
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Gulf Coast Shellers (103)' });
    await option.click();
    await expect(dialog.locator('.ant-select-selection-item').first()).toHaveText('Gulf Coast Shellers (103)');
    await chooseIn(page, dialog, x.season, SEASON);
    await dialog.getByLabel(x.month).fill(MONTH);
    await dialog.getByLabel(x.name).fill(phone ? 'Carol Jensen' : 'Alice Moreno');
    // Each filer's own title: the confidentiality test looks for alice's (Office Manager) on carol's pages.
    await dialog.getByLabel(x.title).fill(phone ? 'Owner' : 'Office Manager');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: x.fileOk }).click();
    await expect(dialog).toBeHidden();
    await expect(agreementCard(page, senderName).filter({ hasText: x.awaitingReceiver })).toBeVisible();
    await signOutIn(page, x);

    // The receiver's dashboard says an agreement awaits its countersignature, and leads to it.
    await signIn(page, 'dave');
    const notice = page.getByTestId('awaiting-countersignature');
    await expect(notice).toContainText(x.awaiting);
    await settle(page);
    await screenshot(page, testInfo, 'dashboard-awaiting-countersignature', lang);
    await notice.getByRole('link', { name: x.review }).click();
    await expect(page).toHaveURL(/\/dashboard\/transfers$/);
    const card = agreementCard(page, senderName).filter({ hasText: x.awaitingReceiver });
    await card.getByRole('button', { name: x.countersign }).click();

    // Name, title and the statement: the button waits for all three.
    const sign = page.getByRole('dialog', { name: x.countersignTitle });
    const ok = sign.getByRole('button', { name: x.countersign });
    await sign.getByLabel(x.name).fill('Dave Okafor');
    await expect(ok).toBeDisabled();
    await sign.getByLabel(x.title).fill('Plant Manager');
    await expect(ok).toBeDisabled();
    await sign.getByRole('checkbox').check();
    await settle(page);
    await screenshot(page, testInfo, 'transfers-countersign-dialog', lang);
    await ok.click();
    await expect(page.getByText(x.countersigned)).toBeVisible();
    await expect(sign).toBeHidden();
    const signed = agreementCard(page, senderName).filter({ hasText: x.signedByBoth });
    await expect(signed).toBeVisible();
    await expect(signed).toContainText('Dave Okafor');
    await expect(signed).toContainText('Plant Manager');
    await settle(page);
    await screenshot(page, testInfo, 'transfers-countersigned', lang);
    if (!phone) {
      // The middle width, as a tablet or a narrow window shows it.
      await page.setViewportSize({ width: 800, height: 900 });
      await settle(page);
      await screenshot(page, testInfo, 'transfers-countersigned-800', lang);
      await page.setViewportSize({ width: 1366, height: 900 });
    }

    // Countersigned, the dashboard's notice is gone.
    await page.goto('/dashboard');
    await expect(page.getByRole('link', { name: x.review })).toHaveCount(0);
    await expect(page.getByTestId('awaiting-countersignature')).toHaveCount(0);

    // Taken back: the agreement is cancelled, so the next run files the same pair again.
    await page.goto('/dashboard/transfers');
    await signed.getByRole('button', { name: x.cancel }).click();
    await page.getByRole('button', { name: x.cancelOk }).click();
    await expect(page.getByText(x.cancelDone)).toBeVisible();
    await expect(agreementCard(page, senderName)).toHaveCount(0);
  });
}

/** Signs out through the account menu in the page's language (support/portal.ts's signOut knows English only). */
async function signOutIn(page: Page, x: { account: RegExp; logout: string }) {
  await settle(page);
  const account = page.getByRole('button', { name: x.account });
  const logout = page.getByRole('menuitem', { name: x.logout });
  // On a loaded machine a tap can land while the menu still slides in: open it again and tap again, as a person would.
  await expect(async () => {
    if (/\/(signin)?$/.test(page.url())) return;
    if (!(await logout.isVisible())) await account.click({ timeout: 5_000 });
    await logout.click({ timeout: 5_000 });
    await expect(page).toHaveURL(/\/(signin)?$/, { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

async function chooseIn(page: Page, scope: Locator, label: string, option: string) {
  const box = scope.getByRole('combobox', { name: label });
  await box.focus();
  await box.press('ArrowDown');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).click();
}

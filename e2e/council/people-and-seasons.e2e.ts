import { expect, test, type Browser, type Page } from '../support/test';
import {
  confirmInPopup,
  COUNCIL_MAIL_API,
  DEMO_PASSWORD,
  lastMailId,
  pickOption,
  screenshot,
  settle,
  signIn,
  useLanguage,
  waitForMail,
} from '../support/portal';

/**
 * The council console's people and season pages, signed in as staff: account requests, handlers, users, seasons.
 * Every test makes its own names (a run's database is shared by all council tests) and signs staff in once.
 */
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** Another person's browser, so staff stay signed in on theirs. */
async function asOther(browser: Browser, baseURL: string, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, username, password);
  return page;
}

test('staff approve a sign-up: the applicant is e-mailed and can sign in', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const username = unique('rita');
  const email = `${username}@example.com`;
  const password = 'Pecan-request-2026';
  const asked = await request.post('/api/account-requests', {
    data: { name: 'Rita Requester', email, username, password, handler_number: '101' },
  });
  expect(asked.status()).toBe(202);

  await signIn(page, 'staff');
  await page.goto('/dashboard/council/account-requests');
  await expect(page.getByRole('heading', { name: 'Account requests' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toContainText(email);
  await expect(row).toContainText('101 · Riverbend Pecan Co.');
  const before = await lastMailId(COUNCIL_MAIL_API);
  await row.getByRole('button', { name: 'Approve Rita Requester' }).click();
  await expect(page.getByText(`Rita Requester can now sign in. An e-mail went to ${email}.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: username })).toHaveCount(0);

  const mail = await waitForMail(email, before, COUNCIL_MAIL_API);
  expect(mail.text).toContain(username);
  expect(mail.text).toMatch(/\/signin/);

  const rita = await asOther(browser, baseURL!, username, password);
  await expect(rita).toHaveURL(/\/dashboard$/);
  await rita.context().close();
});

test('staff refuse a sign-up after confirming, with a reason the applicant reads', async ({ page, request }) => {
  const username = unique('rex');
  const email = `${username}@example.com`;
  expect(
    (
      await request.post('/api/account-requests', {
        data: { name: 'Rex Refused', email, username, password: 'Pecan-request-2026', handler_number: '102' },
      })
    ).status(),
  ).toBe(202);
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/account-requests');
  const before = await lastMailId(COUNCIL_MAIL_API);
  await page.getByRole('button', { name: 'Refuse Rex Refused' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refuse the request of Rex Refused?' });
  await dialog
    .getByLabel('Reason (optional, included in the e-mail)')
    .fill('We could not confirm you work for Mesa Valley.');
  await dialog.getByRole('button', { name: 'Refuse' }).click();
  await expect(page.getByText('The request of Rex Refused was refused.')).toBeVisible();
  const mail = await waitForMail(email, before, COUNCIL_MAIL_API);
  expect(mail.text).toContain('We could not confirm you work for Mesa Valley.');
});

test('staff open a month and alice finds its package on her dashboard', async ({ page, browser, baseURL }) => {
  // July 2027: a month of the current season that no other council test opens; a second run finds it open already.
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/seasons');
  await expect(page.getByRole('heading', { name: 'Calendar of 2026-2027' })).toBeVisible();
  const july = page.getByRole('row').filter({ hasText: 'July 2027' });
  if ((await july.count()) === 0) {
    // Type to filter the months (the select's shown value covers its input, so no click), then pick the one left.
    await page.getByLabel('Month to open').fill('July 2027');
    await page.getByText('July 2027', { exact: true }).click();
    await page.getByRole('button', { name: 'Open month' }).click();
    await expect(page.getByText('Open July 2027?')).toBeVisible();
    await confirmInPopup(page, 'Open month');
    await expect(page.getByText(/July 2027 is open: \d+ new packages?\./)).toBeVisible();
  }
  await expect(july).toBeVisible();
  await expect(july).toContainText('Aug 10, 2027');
  await expect(july.getByRole('cell').last()).not.toHaveText('0');

  const alice = await asOther(browser, baseURL!, 'alice', DEMO_PASSWORD);
  await settle(alice);
  await expect(alice.getByRole('row').filter({ hasText: 'July 2027' }).first()).toBeVisible();
  await alice.context().close();
});

test('staff add a handler: a taken number is shown at its field; then search and deactivate it', async ({ page }) => {
  const number = String(500 + Math.floor(Math.random() * 400));
  const name = unique('Orchard ');
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/handler-companies');
  await page.getByRole('button', { name: 'New handler' }).click();
  const drawer = page.getByRole('dialog', { name: 'New handler' });
  await drawer.getByLabel('Name').fill(name);
  await drawer.getByLabel('Handler number').fill('101');
  await drawer.getByLabel('E-mail').fill('office@orchard.example');
  await drawer.getByRole('button', { name: 'Create' }).click();
  await expect(drawer.getByText('Another handler already has the number 101.')).toBeVisible();
  await drawer.getByLabel('Handler number').fill(number);
  await drawer.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(`${name} was added.`)).toBeVisible();

  await page.getByLabel('Search by name, number, e-mail, phone or address').fill(name);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  await expect(page.getByText(`Deactivate ${name}?`)).toBeVisible();
  await confirmInPopup(page, 'Deactivate');
  await expect(page.getByText(`${name} is deactivated.`)).toBeVisible();
  await expect(row).toContainText('Inactive');
});

test('in Spanish, staff create a user for a handler, send a password link and deactivate the account', async ({
  page,
}) => {
  await useLanguage(page, 'es');
  const username = unique('lucia');
  const email = `${username}@example.com`;
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/users');
  await expect(page.getByRole('heading', { name: 'Usuarios' })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo usuario' }).click();
  const drawer = page.getByRole('dialog', { name: 'Nuevo usuario' });
  await drawer.getByLabel('Nombre de usuario').fill(username);
  await drawer.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await drawer.getByLabel('Apellido').fill('Nogal');
  await drawer.getByLabel('Correo electrónico').fill('lucia-no-es-correo');
  // Type to filter the handlers, then pick the option (its title is its label; the table behind has the same text).
  await pickOption(page, drawer.getByLabel('Manipulador'), '102', '102 · Mesa Valley Pecans');
  const before = await lastMailId(COUNCIL_MAIL_API);
  await drawer.getByRole('button', { name: 'Crear' }).click();
  // The server's message, at its field.
  await expect(drawer.getByText('Enter a valid e-mail address, such as name@example.com.')).toBeVisible();
  await drawer.getByLabel('Correo electrónico').fill(email);
  await drawer.getByRole('button', { name: 'Crear' }).click();
  await expect(
    page.getByText(`Se añadió a Lucía Nogal. Se envió a ${email} un correo para elegir la contraseña.`),
  ).toBeVisible();
  await waitForMail(email, before, COUNCIL_MAIL_API);

  await page.getByLabel('Buscar por nombre, usuario, correo o manipulador').fill(username);
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('102 · ');
  await row.getByRole('button', { name: 'Desactivar a Lucía Nogal' }).click();
  await confirmInPopup(page, 'Desactivar');
  await expect(page.getByText('Lucía Nogal está desactivado y se cerraron todas sus sesiones.')).toBeVisible();
  await expect(row).toContainText('Desactivado');
});

test('the seasons page at phone width', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/seasons');
  await expect(page.getByRole('heading', { name: 'Seasons and periods' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Calendar of/ })).toBeVisible();
  await settle(page);
  // Nothing sticks out sideways: the tables scroll inside their cards.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, testInfo, 'council-seasons', 'en');
  await page.goto('/dashboard/council/users');
  await expect(page.getByRole('row').filter({ hasText: 'alice' }).first()).toBeVisible();
  await settle(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, testInfo, 'council-users', 'en');
  // The form drawer fills the phone's width.
  await page.getByRole('button', { name: 'New user' }).click();
  await expect(page.getByRole('dialog', { name: 'New user' }).getByLabel('Username')).toBeVisible();
  await screenshot(page, testInfo, 'council-new-user', 'en', false);
});

test('staff close a season and reopen it', async ({ page }) => {
  // 2024-2025: a past season no other council test amends.
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/seasons');
  const row = page.getByRole('row').filter({ hasText: '2024-2025' });
  await row.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('Close the season 2024-2025?')).toBeVisible();
  await confirmInPopup(page, 'Close');
  await expect(page.getByText('Season 2024-2025 closed.')).toBeVisible();
  await expect(row.getByText('Closed', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Reopen' }).click();
  await confirmInPopup(page, 'Reopen');
  await expect(page.getByText('Season 2024-2025 reopened.')).toBeVisible();
  await expect(row.getByText('Closed', { exact: true })).toBeHidden();
});

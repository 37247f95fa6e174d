import { expect, test, type APIRequestContext } from './support/test';
import { DEMO_PASSWORD, lastMailId, nextStaffCode, signIn, waitForMail } from './support/portal';

/**
 * Changing one's e-mail address (docs/SECURITY.md, "Identity"): the profile page asks for the new address and the
 * current password; the address changes only once the link mailed to it is confirmed, and the old address is told.
 */
async function staffToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/oauth/token', {
    form: {
      grant_type: 'password',
      client_id: 'portal-web',
      username: 'staff',
      password: DEMO_PASSWORD,
      totp: await nextStaffCode(),
    },
  });
  expect(res.ok(), 'staff signs in through the API').toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

test('a user changes the e-mail address through the link mailed to the new one', async ({
  page,
  request,
}, testInfo) => {
  const username = `mail${testInfo.project.name}${Date.now().toString(36)}`.toLowerCase();
  const password = 'Pecan-mail-change-2026';
  const made = await request.post('/api/council/users', {
    headers: { Authorization: `Bearer ${await staffToken(request)}`, Accept: 'application/json' },
    data: {
      username,
      first_name: 'Mia',
      last_name: 'Mail',
      email: `${username}@example.com`,
      role: 'handler',
      handler_number: '101',
      password,
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  await signIn(page, username, password);
  await page.goto('/dashboard/my-profile');
  const card = page.locator('.ant-card', { hasText: 'Change e-mail address' }).last();
  await expect(card.getByText(`${username}@example.com`)).toBeVisible();
  const newAddress = `${username}.new@example.com`;
  const before = await lastMailId();
  await card.getByLabel('New e-mail address').fill(newAddress);
  await card.getByLabel('Current password').fill('not-the-password');
  await card.getByRole('button', { name: 'Send the confirmation link' }).click();
  await expect(card.getByText('The current password is not right.')).toBeVisible();
  await card.getByLabel('Current password').fill(password);
  await card.getByRole('button', { name: 'Send the confirmation link' }).click();
  await expect(card.getByText(`A confirmation link was sent to ${newAddress}.`)).toBeVisible();

  const notice = await waitForMail(`${username}@example.com`, before);
  expect(notice.subject).toBe('Your Handler Portal e-mail address is being changed');
  const mail = await waitForMail(newAddress, before);
  const link = /https?:\/\/[^\s"'<>]+\/confirm-email\?token=[^\s"'<>]+/
    .exec(`${mail.text}\n${mail.html}`)?.[0]
    ?.replace(/&amp;/g, '&');
  expect(link, `a confirmation link in "${mail.subject}"`).toBeTruthy();
  const url = new URL(link!);
  await page.goto(`${url.pathname}${url.search}`);
  await page.getByRole('button', { name: 'Confirm my e-mail address' }).click();
  await expect(page.getByText(`Done: ${newAddress} is now your confirmed e-mail address.`)).toBeVisible();

  await page.goto('/dashboard/my-profile');
  await expect(
    page.locator('.ant-card', { hasText: 'Change e-mail address' }).last().getByText(newAddress),
  ).toBeVisible();
});

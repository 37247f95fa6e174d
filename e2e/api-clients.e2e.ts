import { expect, test } from './support/test';
import { confirmInPopup, expectAccessible, screenshot, settle, signIn } from './support/portal';

/**
 * API clients (docs/API-CLIENTS.md): an admin of a handler creates one in My Profile and sees its secret once; the
 * test then uses it as an integrator would (client_credentials, a draft saved through JSON:API, certification
 * refused), and revokes it.
 */
test('an admin creates an API client, its secret shown once, which saves a draft but cannot certify', async ({
  page,
}, testInfo) => {
  // Alice (101) on a desktop, Carol (102) on a phone: by the phone's run the desktop run has certified Alice's drafts.
  const admin = testInfo.project.name === 'mobile' ? 'carol' : 'alice';
  await signIn(page, admin);
  await page.goto('/dashboard/my-profile');
  const card = page.getByTestId('api-clients');
  await expect(card.getByRole('heading', { name: 'API clients' })).toBeVisible();
  const name = `ERP export ${testInfo.project.name} ${Date.now() % 100000}`;
  await card.getByLabel('Name').fill(name);
  await card.getByLabel('Read, and save drafts (never certify)').check();
  await card.getByRole('button', { name: 'Create client' }).click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Copy the secret now: you will not see it again.')).toBeVisible();
  const clientId = (await dialog.getByTestId('new-client-id').textContent())!.trim();
  const secret = (await dialog.getByTestId('new-client-secret').textContent())!.trim();
  expect(clientId).toMatch(/^pc_/);
  expect(secret.length).toBeGreaterThanOrEqual(43);
  await expect(dialog.getByRole('button', { name: 'Copy' })).toHaveCount(2);
  await settle(page);
  await screenshot(page, testInfo, 'api-client-secret', 'en', false);
  await expectAccessible(page, testInfo, 'api-client-secret');
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(dialog).toBeHidden();
  // Listed with its id, never with its secret.
  const row = card.locator(`[data-client="${clientId}"]`);
  await expect(row).toContainText(name);
  await expect(row).toContainText('Never used');
  await expect(page.getByText(secret)).toHaveCount(0);

  // The integrator's side: a token by client_credentials, then JSON:API.
  const tokenRes = await page.request.post('/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
  expect(tokenRes.status(), await tokenRes.text()).toBe(200);
  const issued = (await tokenRes.json()) as { access_token: string; scope: string; refresh_token?: string };
  expect(issued.scope).toBe('read write');
  expect(issued.refresh_token).toBeUndefined();
  const headers = {
    authorization: `Bearer ${issued.access_token}`,
    accept: 'application/vnd.api+json',
    'content-type': 'application/vnd.api+json',
  };
  const drafts = await page.request.get('/jsonapi/node/apc_form_1?filter[field_form_status]=draft&page[limit]=1', {
    headers,
  });
  expect(drafts.status()).toBe(200);
  const draft = (await drafts.json()).data[0] as { id: string; attributes: Record<string, unknown> };
  expect(draft, `${admin}'s handler has a draft form 1`).toBeTruthy();
  const save = await page.request.patch(`/jsonapi/node/apc_form_1/${draft.id}`, {
    headers,
    data: {
      data: {
        type: 'node--apc_form_1',
        id: draft.id,
        attributes: { field_receipts_native: draft.attributes.field_receipts_native ?? 0 },
      },
    },
  });
  expect(save.status(), await save.text()).toBe(200);
  const certify = await page.request.patch(`/jsonapi/node/apc_form_1/${draft.id}`, {
    headers,
    data: {
      data: {
        type: 'node--apc_form_1',
        id: draft.id,
        attributes: { field_certified: true, field_certification_name: 'A Robot' },
      },
    },
  });
  expect(certify.status()).toBe(403);
  expect(((await certify.json()) as { errors: Array<{ detail: string }> }).errors[0].detail).toContain(
    "certification is a person's act",
  );

  await page.reload();
  await expect(row).not.toContainText('Never used');
  await settle(page);
  await card.getByRole('heading', { name: 'API clients' }).scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'my-profile-api-clients', 'en', false);
  await expectAccessible(page, testInfo, 'my-profile-api-clients');

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await confirmInPopup(page, 'Revoke');
  await expect(row).toContainText('Revoked');
  const after = await page.request.get('/jsonapi/node/season', { headers });
  expect(after.status()).toBe(401);
});

test('a user without the admin flag sees no API clients section', async ({ page }) => {
  await signIn(page, 'bob');
  await page.goto('/dashboard/my-profile');
  await expect(page.getByTestId('active-sessions')).toBeVisible();
  await settle(page);
  await expect(page.getByTestId('api-clients')).toHaveCount(0);
});

test("staff manage any handler's API clients from the council console", async ({ page }, testInfo) => {
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/handler-companies');
  await page.getByRole('button', { name: 'API clients of Mesa Valley Pecans' }).click();
  const drawer = page.getByRole('dialog', { name: 'API clients: Mesa Valley Pecans' });
  const name = `Mesa bridge ${testInfo.project.name} ${Date.now() % 100000}`;
  await drawer.getByLabel('Name').fill(name);
  await drawer.getByRole('button', { name: 'Create client' }).click();
  const secretDialog = page.getByRole('dialog', { name: `API client ${name} created` });
  await expect(secretDialog.getByText('Copy the secret now: you will not see it again.')).toBeVisible();
  const clientId = (await secretDialog.getByTestId('new-client-id').textContent())!.trim();
  const secret = (await secretDialog.getByTestId('new-client-secret').textContent())!.trim();
  await secretDialog.getByRole('button', { name: 'I have copied it' }).click();
  await expect(secretDialog).toBeHidden();
  const row = drawer.locator(`[data-client="${clientId}"]`);
  await expect(row.getByText('Read', { exact: true })).toBeVisible();
  await settle(page);
  await screenshot(page, testInfo, 'council-api-clients', 'en', false);

  // A read-only client of 102: it reads, and it writes nothing.
  const tokenRes = await page.request.post('/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
  expect(tokenRes.status()).toBe(200);
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const headers = {
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.api+json',
    'content-type': 'application/vnd.api+json',
  };
  const drafts = await page.request.get('/jsonapi/node/apc_form_1?filter[field_form_status]=draft&page[limit]=1', {
    headers,
  });
  expect(drafts.status()).toBe(200);
  const draft = (await drafts.json()).data[0] as { id: string } | undefined;
  if (draft) {
    const write = await page.request.patch(`/jsonapi/node/apc_form_1/${draft.id}`, {
      headers,
      data: { data: { type: 'node--apc_form_1', id: draft.id, attributes: {} } },
    });
    expect(write.status()).toBe(403);
  }

  await row.getByRole('button', { name: `New secret for ${name}` }).click();
  await confirmInPopup(page, 'New secret');
  const rotated = page.getByRole('dialog', { name: `New secret for ${name}` });
  await expect(rotated).toBeVisible();
  // The drawer is a dialog too, so wait for this one alone to close.
  await rotated.getByRole('button', { name: 'I have copied it' }).click();
  await expect(rotated).toBeHidden();
  await expect(row).toContainText('The previous secret works until');
});

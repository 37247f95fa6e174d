import { expect, test, type Browser, type Locator, type Page, type TestInfo } from '../support/test';
import { certifyForm, confirmInPopup, screenshot, settle, signIn } from '../support/portal';

/**
 * The council console's operations pages, as staff: the submissions board, a filing's versions side by side,
 * publishing the monthly report, marking an invoice paid, and the audit log. The council server's database is
 * shared with the other council test files (which open periods and approve sign-ups), so every test finds the
 * filings it needs on the board instead of assuming them, and makes alice file through the UI in a second browser.
 */
test.describe.configure({ timeout: 240_000 });
test.use({ actionTimeout: 30_000 });

const ALICE = '101';
const FORMS = ['apc_form_3', 'apc_form_2', 'apc_form_1'] as const;
type Form = (typeof FORMS)[number];

/** A second browser signed in as another user (alice files, carol reads reports). */
async function asUser(browser: Browser, username: string, info: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    baseURL: info.project.use.baseURL,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await signIn(page, username);
  return page;
}

/** No table is loading (a filtered list shows the previous answer, greyed, until the new one is there). */
async function loaded(page: Page) {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 30_000 });
}

const cell = (page: Page, form: Form) => page.getByTestId(`cell-${ALICE}-${form}`);

async function openBoard(page: Page, search = '') {
  await page.goto(`/dashboard/council/board${search}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Submissions board' })).toBeVisible();
  await expect(cell(page, 'apc_form_1')).toBeVisible({ timeout: 30_000 });
}

/** The board cell's status and the form's address for alice (the version the cell links to). */
async function cellState(
  page: Page,
  form: Form,
): Promise<{ status: string; href: string | null; text: string; inProgress: boolean }> {
  const c = cell(page, form);
  const status = (await c.getAttribute('data-status')) ?? '';
  const link = c.getByRole('link');
  const href = (await link.count()) ? await link.getAttribute('href') : null;
  const text = (await c.innerText()).replace(/\s+/g, ' ');
  return { status, href, text, inProgress: text.includes('amendment in progress') };
}

const versionIdOf = (href: string) => href.split('/').pop()!;

/** Alice saves a draft form as it is and certifies it. */
async function aliceCertifiesDraft(alice: Page, form: Form, versionId: string) {
  await alice.goto(`/dashboard/forms/${form}/${versionId}`);
  await alice.getByRole('button', { name: 'Save and continue to certification' }).click();
  await certify(alice);
}

/** Alice amends a certified form 1 with a new inventory figure and certifies the amendment. */
async function aliceAmendsForm1(alice: Page, versionId: string, inventory: string) {
  await alice.goto(`/dashboard/forms/apc_form_1/${versionId}`);
  await alice.getByRole('button', { name: /^(edit )?Amend$/ }).click();
  await alice.getByLabel('Reason for the amendment').fill('Council console browser test');
  await alice.getByRole('button', { name: 'Create amendment' }).click();
  await expect(alice).toHaveURL(/\/dashboard\/formAmendCertification\//, { timeout: 60_000 });
  await alice.getByLabel('Inventory inshell').fill(inventory);
  await alice.getByRole('button', { name: 'Save and continue to certification' }).click();
  await certify(alice);
}

async function certify(alice: Page) {
  await expect(alice).toHaveURL(/\/dashboard\/formCertification\//, { timeout: 60_000 });
  await certifyForm(alice);
  await expect(alice).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
}

/** Opens an Ant Design select found by its label (a click on the box: the chosen value covers the input). */
async function openSelect(page: Page, label: string) {
  const input = page.getByLabel(label, { exact: true });
  await page.locator('.ant-select', { has: input }).click();
  // The option list may load on the first opening: wait for the options themselves.
  await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option').first()).toBeVisible();
}

/** Picks an option of an Ant Design select by its label. */
async function choose(page: Page, label: string, option: string | RegExp) {
  await openSelect(page, label);
  await page.locator('.ant-select-dropdown:visible').getByTitle(option).first().click();
}

/** The audit log filtered through its form; the newest matching entry opened. */
async function auditEntry(
  page: Page,
  filters: { user?: string; handler?: string; type?: string; action?: string },
  has: string | RegExp,
): Promise<Locator> {
  await page.goto('/dashboard/council/audit-log');
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  if (filters.type) {
    await choose(page, 'Type', filters.type);
    await expect(page).toHaveURL(/type=/);
  }
  if (filters.action) {
    await choose(page, 'Action', filters.action);
    await expect(page).toHaveURL(/action=/);
  }
  if (filters.user) await page.getByLabel('User (username)').fill(filters.user);
  if (filters.handler) await page.getByLabel('Handler number').fill(filters.handler);
  await page.getByRole('button', { name: 'Apply' }).click();
  if (filters.user) await expect(page).toHaveURL(new RegExp(`user=${filters.user}`));
  if (filters.handler) await expect(page).toHaveURL(new RegExp(`handler=${filters.handler}`));
  await loaded(page);
  const row = page.getByRole('row').filter({ hasText: has }).first();
  await expect(row).toBeVisible();
  return row;
}

test('staff watch a filing move on the board as alice certifies it, and find it in the audit log', async ({
  page,
  browser,
}, info) => {
  await signIn(page, 'staff');
  await openBoard(page);
  // A form of this month alice has not certified yet; else a certified form 1 she amends.
  let target: { form: Form; state: Awaited<ReturnType<typeof cellState>> } | undefined;
  for (const form of FORMS) {
    const state = await cellState(page, form);
    if (['not_started', 'draft', 'overdue'].includes(state.status) && state.href && !target) target = { form, state };
  }
  const amendInstead = !target;
  if (!target) {
    const state = await cellState(page, 'apc_form_1');
    expect(state.inProgress, 'alice has an amendment of form 1 in progress').toBe(false);
    target = { form: 'apc_form_1', state };
  }
  const before = target.state;
  const alice = await asUser(browser, 'alice', info);
  if (amendInstead)
    await aliceAmendsForm1(alice, versionIdOf(before.href!), String(300000 + Math.floor(Math.random() * 1000)));
  else await aliceCertifiesDraft(alice, target.form, versionIdOf(before.href!));
  await alice.context().close();

  // The board refreshes itself: no reload.
  const moved = cell(page, target.form);
  if (amendInstead) await expect(moved).not.toHaveText(before.text, { timeout: 30_000 });
  else await expect(moved).toHaveAttribute('data-status', 'certified', { timeout: 30_000 });
  await expect(moved.getByText(amendInstead ? 'Amended' : 'Certified', { exact: true })).toBeVisible();

  // The certification is in the audit log, by alice.
  const entry = await auditEntry(page, { user: 'alice', action: 'Certified' }, 'Certified');
  await expect(entry).toContainText('alice');
  await entry.click();
  await expect(page.getByRole('cell', { name: 'form_status' }).first()).toBeVisible();
});

/** The staff bearer token the board page sends (captured from its read, for the test's own setup calls). */
async function bearerOfBoard(page: Page): Promise<string> {
  const read = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/council/board');
  await page.reload();
  return (await read).headers().authorization;
}

/** The next board read the page sends whose parameters pass `check` (a poll of the page before may come first). */
const boardRead = (page: Page, check: (params: URLSearchParams) => boolean) =>
  page.waitForRequest((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/council/board' && check(url.searchParams);
  });

test('the board pages handlers 50 at a time, searches and sorts on the server, at desktop and phone width', async ({
  page,
}, info) => {
  await signIn(page, 'staff');
  await openBoard(page);
  const authorization = await bearerOfBoard(page);
  // Enough handlers for a second page; made inactive at the end, which takes them off the board (and off the month
  // openings of the other tests) again.
  const run = Date.now().toString(36).slice(-5).toUpperCase();
  const made: string[] = [];
  const setHandler = (method: 'POST' | 'PATCH', id: string | null, attributes: Record<string, string>) =>
    page.request.fetch(id ? `/jsonapi/node/handler/${id}` : '/jsonapi/node/handler', {
      method,
      headers: { authorization, 'content-type': 'application/vnd.api+json' },
      data: { data: { type: 'node--handler', ...(id ? { id } : {}), attributes } },
    });
  try {
    for (let i = 0; i < 55; i += 1) {
      const number = `PG-${run}-${String(i).padStart(2, '0')}`;
      const r = await setHandler('POST', null, { title: `Pager Pecans ${i}`, field_handler_number: number });
      expect(r.status(), await r.text()).toBe(201);
      made.push(((await r.json()) as { data: { id: string } }).data.id);
    }
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
      // One page asked for, not the whole board.
      const first = boardRead(page, (p) => p.get('page') === '1');
      await openBoard(page);
      await first;
      const pager = page.locator('.ant-pagination');
      await expect(pager.getByText(/^\d+ handlers$/)).toBeVisible();
      const total = Number((await pager.getByText(/^\d+ handlers$/).textContent())!.split(' ')[0]);
      expect(total).toBeGreaterThanOrEqual(58);
      await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(50);

      const second = boardRead(page, (p) => p.get('page') === '2');
      await pager.getByTitle('2', { exact: true }).click();
      await second;
      await expect(page).toHaveURL(/[?&]page=2/);
      await loaded(page);
      await expect(cell(page, 'apc_form_1')).toHaveCount(0);
      await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(Math.min(50, total - 50));

      // The search goes to the server once typing pauses, and starts again at page 1.
      const searched = boardRead(page, (p) => p.get('q') === 'riverbend' && p.get('page') === '1');
      await page.locator('#board-q').fill('riverbend');
      await searched;
      await expect(page).not.toHaveURL(/[?&]page=/);
      await loaded(page);
      await expect(cell(page, 'apc_form_1')).toBeVisible();
      await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(1);
      await page.locator('#board-q').fill('');

      // Sorted by handler number, highest first, by the server: handler 101 is no longer on page 1.
      await expect(cell(page, 'apc_form_1')).toBeVisible();
      const sorted = boardRead(page, (p) => p.get('sort') === '-handler_number');
      await page.getByRole('columnheader', { name: /Handler/ }).click();
      await sorted;
      await loaded(page);
      await expect(cell(page, 'apc_form_1')).toHaveCount(0);
      if (width < 800) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, 'the paged board is wider than the phone').toBeLessThanOrEqual(1);
      }
      await screenshot(page, info, `council-board-paged-${width}`, 'en');
    }
  } finally {
    for (const id of made) await setHandler('PATCH', id, { field_handler_status: 'inactive' });
  }
});

test('a search box says what the list is searched by, after the menu and after Back', async ({ page }) => {
  await signIn(page, 'staff');
  const rows = page.locator('tbody tr.ant-table-row');
  await openBoard(page);
  const everyHandler = await rows.count();
  expect(everyHandler).toBeGreaterThan(1);
  const search = page.getByRole('textbox', { name: 'Handler', exact: true });
  await search.fill('riverbend');
  await expect(page).toHaveURL(/[?&]q=riverbend/);
  await expect(rows).toHaveCount(1);

  // The menu's link to the page in view: the search is gone from the address, and so from the box.
  await page.getByRole('menuitem', { name: 'Submissions board' }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(search).toHaveValue('');
  await expect(rows).toHaveCount(everyHandler);
  // Back: the search is in the address again, and in the box as in the list.
  await page.goBack();
  await expect(page).toHaveURL(/[?&]q=riverbend/);
  await expect(search).toHaveValue('riverbend');
  await expect(rows).toHaveCount(1);

  // A box applied with its button (invoices and payments): the same after Back.
  await page.getByRole('menuitem', { name: 'Invoices and payments' }).click();
  const handler = page.getByRole('searchbox', { name: 'Handler number' });
  await handler.fill('101');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]handler=101/);
  await page.getByRole('menuitem', { name: 'Invoices and payments' }).click();
  await expect(handler).toHaveValue('');
  await page.goBack();
  await expect(handler).toHaveValue('101');
});

test('compare two versions of an amended form side by side, the changes highlighted', async ({
  page,
  browser,
}, info) => {
  await signIn(page, 'staff');
  await openBoard(page);
  // Alice's form 1 of a month where it is certified: this month, else the months before it, newest first.
  let state = await cellState(page, 'apc_form_1');
  for (let back = 1; (!['certified', 'amended'].includes(state.status) || state.inProgress) && back <= 12; back++) {
    await openSelect(page, 'Month');
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    const labels = await options.allInnerTexts();
    const index =
      labels.indexOf(await page.locator('.ant-select-dropdown:visible .ant-select-item-option-selected').innerText()) -
      1;
    if (index < 0) break;
    await options.nth(index).click();
    await expect(page.getByTestId('board-scope')).toContainText(`Forms of ${labels[index]}`);
    await loaded(page);
    state = await cellState(page, 'apc_form_1');
  }
  expect(['certified', 'amended']).toContain(state.status);
  const inventory = String(400000 + Math.floor(Math.random() * 100000));
  const alice = await asUser(browser, 'alice', info);
  await aliceAmendsForm1(alice, versionIdOf(state.href!), inventory);
  await alice.context().close();

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(cell(page, 'apc_form_1')).toHaveAttribute('data-status', 'amended');
  await cell(page, 'apc_form_1').getByRole('link').click();
  await expect(page).toHaveURL(/\/dashboard\/council\/board\/filing\/apc_form_1\//);
  await expect(page.getByRole('heading', { level: 1, name: /^Form 1 of 101 / })).toBeVisible();
  const table = page.getByTestId('versions-comparison');
  // Side by side: the amendment before it and the new one, with a legend for the highlight.
  await expect(table.getByRole('columnheader', { name: /Amendment \d+/ }).last()).toBeVisible();
  await expect(page.getByRole('note', { name: 'Legend' })).toContainText(
    'Highlighted: the value differs between the two versions',
  );
  const row = table.getByRole('row').filter({ hasText: 'Inventory inshell' });
  await expect(row.getByText('Changed')).toBeVisible();
  await expect(row).toContainText(Number(inventory).toLocaleString('en-US'));
  await expect(row.getByRole('cell').last()).toHaveCSS('background-color', 'rgb(255, 241, 184)');
  await screenshot(page, info, 'council-versions', 'en', false);
  // Only the changed fields, on request.
  await page.getByRole('switch').click();
  const rows = table.locator('tbody tr.ant-table-row');
  for (const text of await rows.allInnerTexts()) expect(text).toContain('Changed');
  await page.getByRole('link', { name: 'Back to the submissions board' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Submissions board' })).toBeVisible();
});

test('publish a monthly report after a preview, carol sees it, and the audit log has it', async ({
  page,
  browser,
}, info) => {
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/publishing');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports and analytics' })).toBeVisible();
  // This calendar month when it is open, else the month offered.
  const thisMonth = new Date().toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  await openSelect(page, 'Month to generate');
  const option = page.locator('.ant-select-dropdown:visible').getByTitle(thisMonth);
  if (await option.count()) await option.click();
  else await page.keyboard.press('Escape');
  const month = await page
    .locator('.ant-select', { has: page.locator('#pub-month') })
    .locator('.ant-select-selection-item')
    .innerText();
  await page.getByRole('button', { name: 'Generate report' }).click();
  await expect(page.getByText(/^Generated\. Handlers reporting: \d+\.$/)).toBeVisible({ timeout: 60_000 });

  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: month, exact: true }) });
  // Which handlers' data it drew from.
  await row.getByRole('button', { name: /^Data sources of / }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(/from the certified filings of \d+ handlers?/)).toBeVisible();
  await expect(dialog.getByRole('row').filter({ hasText: `${ALICE} Riverbend Pecan Co.` })).toBeVisible();
  await screenshot(page, info, 'council-report-sources', 'en', false);
  await dialog.getByRole('tab', { name: 'Preview' }).click();
  await expect(dialog.locator('iframe')).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  await screenshot(page, info, 'council-report-preview', 'en', false);
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  if ((await row.getByText('Published', { exact: true }).count()) > 0) {
    await row.getByRole('button', { name: `Take the report of ${month} off the portal` }).click();
    await confirmInPopup(page, 'Take off the portal');
    await expect(row.getByText('Not published')).toBeVisible();
  }
  await row.getByRole('button', { name: `Publish the report of ${month}` }).click();
  await expect(page.getByRole('tooltip')).toContainText('Every handler will see it under Position reports.');
  await confirmInPopup(page, 'Publish');
  await expect(page.getByText(`The report of ${month} is published on the portal.`)).toBeVisible();
  await expect(row.getByText('Published', { exact: true })).toBeVisible();

  const carol = await asUser(browser, 'carol', info);
  await carol.goto('/dashboard/reports');
  await expect(carol.getByText(`Month: ${month}`, { exact: false }).first()).toBeVisible({ timeout: 30_000 });
  await carol.context().close();

  const entry = await auditEntry(
    page,
    { user: 'staff', type: 'Monthly position report', action: 'Updated' },
    'Pecan Industry Position Report',
  );
  await entry.click();
  await expect(page.getByRole('row').filter({ hasText: 'publish_to_portal' }).first()).toBeVisible();
});

test('mark an invoice paid after a confirmation; alice sees it paid; the audit log has the payment', async ({
  page,
  browser,
}, info) => {
  await signIn(page, 'staff');
  await page.goto(`/dashboard/council/billing?status=open&handler=${ALICE}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices and payments' })).toBeVisible();
  const first = page.getByRole('button', { name: /^Mark invoice .* paid$/ }).first();
  await expect(first, 'alice has an open invoice').toBeVisible();
  const number = (await first.getAttribute('aria-label'))!.replace(/^Mark invoice (.*) paid$/, '$1');
  const amount = await page.getByRole('row').filter({ hasText: number }).getByRole('cell').nth(3).innerText();
  expect(amount).toMatch(/^-?\$[\d,]+\.\d{2}$/);
  await first.click();
  const dialog = page.getByRole('dialog', { name: `Mark invoice ${number} as paid` });
  await expect(dialog).toContainText(amount);
  const reference = `CHK-${Date.now() % 100000}`;
  await dialog.getByLabel('Reference (cheque or transfer number)').fill(reference);
  await dialog.getByRole('button', { name: 'Mark as paid' }).click();
  await expect(page.getByText(`Invoice ${number} is marked paid.`)).toBeVisible();
  // Filtered on open invoices: the paid one leaves the list; without the filter it is paid, with its reference.
  await page.goto(`/dashboard/council/billing?handler=${ALICE}`);
  await loaded(page);
  const paidRow = page.getByRole('row').filter({ hasText: number });
  await expect(paidRow.getByText('Paid', { exact: true })).toBeVisible();
  await expect(paidRow).toContainText(reference);
  await page.getByRole('tab', { name: /^Totals / }).click();
  await expect(page.getByText('Billed', { exact: true }).first()).toBeVisible();

  const alice = await asUser(browser, 'alice', info);
  await alice.goto('/dashboard/invoices');
  await expect(alice.getByRole('row').filter({ hasText: number }).getByText('Paid', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await alice.context().close();

  // Marking paid writes the invoice twice (its status, then its new PDF): the entry with the reference is one of them.
  await auditEntry(page, { type: 'Invoice', action: 'Updated', handler: ALICE }, number);
  const entries = page
    .getByRole('row')
    .filter({ hasText: `Invoice ${number}` })
    .filter({ has: page.getByText('Updated', { exact: true }) });
  await expect(entries.nth(1)).toBeVisible();
  await expect(entries.first()).toContainText('staff');
  await entries.nth(1).click();
  await entries.nth(0).click();
  // Before: none; after: the reference typed in the dialog.
  await expect(page.getByRole('row', { name: new RegExp(`^paid_reference\\s+—\\s+${reference}$`) })).toBeVisible();
});

test('the audit log is read only and searchable; the console in Spanish; pages at phone width', async ({
  page,
}, info) => {
  await signIn(page, 'staff');
  await page.goto('/dashboard/council/audit-log');
  await expect(page.getByText('The log is read only: nobody can edit or delete an entry.')).toBeVisible();
  await expect(page.getByRole('button', { name: /delete|edit/i })).toHaveCount(0);
  // A bad filter is a clear error, not an empty page.
  await page.getByLabel('User (username)').fill('nobody-like-this');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('alert')).toContainText('There is no user nobody-like-this');
  expect(page.url()).toContain('user=nobody-like-this');

  // The reminders log answers (the e2e server's reminder job may not have sent anything: the list or its empty text).
  await page.goto('/dashboard/council/reminders');
  await expect(page.getByRole('heading', { level: 1, name: 'Reminders' })).toBeVisible();
  await expect(
    page.getByRole('table').or(page.getByText('No reminder has been sent for these filters.')).first(),
  ).toBeVisible();

  // Another language: the board in Spanish.
  await page.evaluate(() => localStorage.setItem('portal_language', 'es'));
  await page.goto('/dashboard/council/board');
  await expect(page.getByRole('heading', { level: 1, name: 'Tablero de envíos' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Certificado/ }).first()).toBeVisible();
  await page.evaluate(() => localStorage.setItem('portal_language', 'en'));

  // Phone width: the tables scroll inside the page, the page itself does not.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, name, heading] of [
    ['/dashboard/council/board', 'council-board', 'Submissions board'],
    ['/dashboard/council/billing', 'council-billing', 'Invoices and payments'],
    ['/dashboard/council/publishing', 'council-publishing', 'Reports and analytics'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await settle(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} is wider than the phone`).toBeLessThanOrEqual(1);
    await screenshot(page, info, name, 'en');
  }
});

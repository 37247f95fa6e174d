import { expect, test, type Page } from './support/test';
import { LANGUAGE_KEY, THEME_KEY, screenshot, signIn } from './support/portal';

/** The frame around the pages: language switcher (six languages, Arabic right to left), theme settings, widths. */

const LANGS = [
  {
    code: 'en',
    name: 'English',
    lang: 'en',
    dir: 'ltr',
    title: 'Handler Portal',
    submit: 'Sign in',
    help: 'Help: filing with the Council',
    logout: 'Logout',
  },
  {
    code: 'zh',
    name: '中文',
    lang: 'zh',
    dir: 'ltr',
    title: '处理商门户',
    submit: '登录',
    help: '帮助：向委员会申报',
    logout: '退出登录',
  },
  {
    code: 'es',
    name: 'Español',
    lang: 'es',
    dir: 'ltr',
    title: 'Portal de manipuladores',
    submit: 'Iniciar sesión',
    help: 'Ayuda: sus informes al Council',
    logout: 'Cerrar sesión',
  },
  {
    code: 'fr',
    name: 'Français',
    lang: 'fr',
    dir: 'ltr',
    title: 'Portail des conditionneurs',
    submit: 'Se connecter',
    help: 'Aide : vos déclarations au Council',
    logout: 'Déconnexion',
  },
  {
    code: 'it',
    name: 'Italiano',
    lang: 'it',
    dir: 'ltr',
    title: 'Portale dei confezionatori',
    submit: 'Accedi',
    help: 'Guida: le dichiarazioni al Council',
    logout: 'Esci',
  },
  {
    code: 'sa',
    name: 'العربية',
    lang: 'ar',
    dir: 'rtl',
    title: 'بوابة المتعاملين',
    submit: 'تسجيل الدخول',
    help: 'المساعدة: تقديم التقارير إلى المجلس',
    logout: 'تسجيل الخروج',
  },
] as const;

const switcher = (page: Page) =>
  page
    .locator('select')
    .filter({ has: page.locator('option[value="sa"]') })
    .first();

async function rgb(page: Page, selector: string, prop = 'backgroundColor'): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((el, p) => getComputedStyle(el)[p as 'color'], prop);
}

test.describe('languages', () => {
  test('the sign-in page switches to each language, Arabic right to left, and remembers the choice', async ({
    page,
  }) => {
    await page.goto('/signin');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    for (const l of LANGS) {
      await switcher(page).selectOption(l.code);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.title);
      await expect(page.locator('form button[type="submit"]')).toHaveText(l.submit);
      await expect(page.locator('html')).toHaveAttribute('lang', l.lang);
      await expect(page.locator('html')).toHaveAttribute('dir', l.dir);
      expect(await page.evaluate((k) => localStorage.getItem(k), LANGUAGE_KEY)).toBe(l.code);
    }
    // Arabic stays after a reload; the form lays out right to left.
    await switcher(page).selectOption('sa');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('بوابة المتعاملين');
    const label = await page.getByText('اسم المستخدم', { exact: true }).boundingBox();
    const input = await page.locator('input[name="username"]').boundingBox();
    expect(label!.x + label!.width, 'the label starts at the right edge of its field').toBeGreaterThan(
      input!.x + input!.width - 40,
    );
    await switcher(page).selectOption('en');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  });

  test('inside the dashboard every language translates the menu and Arabic mirrors the layout', async ({
    page,
    isMobile,
  }) => {
    await signIn(page, 'alice');
    await page.goto('/dashboard/help');
    const titles = new Set<string>();
    for (const l of LANGS) {
      await switcher(page).selectOption(l.code);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.help);
      await expect(page.locator('html')).toHaveAttribute('dir', l.dir);
      await expect(page.getByRole('button', { name: l.code === 'en' ? 'Theme settings' : /./ }).first()).toBeVisible();
      titles.add(await page.title());
    }
    expect(titles.size, 'the document title is translated too').toBe(LANGS.length);
    await switcher(page).selectOption('sa');
    if (!isMobile) {
      // The sidebar sits on the right in Arabic.
      const side = await page.locator('.ant-layout-sider').boundingBox();
      const main = await page.locator('#main-content').boundingBox();
      expect(side!.x).toBeGreaterThan(main!.x);
    }
    await page.getByRole('button', { name: /^حساب / }).click();
    await expect(page.getByRole('menuitem', { name: 'تسجيل الخروج' })).toBeVisible();
    await page.keyboard.press('Escape');
    await switcher(page).selectOption('en');
  });

  test('on a small phone the company name is cut at its own end, on the side where the page starts', async ({
    page,
  }, info) => {
    // 360 px leaves the name about 115 px beside the menu button, the language, the theme and the account buttons.
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, 'alice');
    for (const l of [LANGS[0], LANGS[5]]) {
      await switcher(page).selectOption(l.code);
      await expect(page.locator('html')).toHaveAttribute('dir', l.dir);
      const name = page.locator('header bdi');
      await expect(name).toHaveText('Riverbend Pecan Co.');
      const shown = await name.evaluate((el) => {
        const first = document.createRange();
        first.setStart(el.firstChild!, 0);
        first.setEnd(el.firstChild!, 1);
        const box = el.getBoundingClientRect();
        const letter = first.getBoundingClientRect();
        const style = getComputedStyle(el);
        return {
          cut: el.scrollWidth > el.clientWidth,
          ellipsis: style.textOverflow,
          direction: style.direction,
          box: { left: box.left, right: box.right },
          letter: { left: letter.left, right: letter.right },
        };
      });
      expect(shown.cut, `${l.code}: the name is cut to fit`).toBe(true);
      expect(shown.ellipsis).toBe('ellipsis');
      // A Latin name keeps its own direction in Arabic, so it is cut at its end and its first letter shows.
      expect(shown.direction, `${l.code}: the name's own direction`).toBe('ltr');
      expect(shown.letter.left, `${l.code}: the name's first letter is inside its box`).toBeGreaterThanOrEqual(
        shown.box.left - 0.5,
      );
      expect(shown.letter.right).toBeLessThanOrEqual(shown.box.right + 0.5);
      // It sits where the page starts: left of the language switcher in English, right of it in Arabic.
      const language = (await switcher(page).boundingBox())!;
      if (l.dir === 'ltr') expect(shown.box.right).toBeLessThanOrEqual(language.x);
      else expect(shown.box.left).toBeGreaterThanOrEqual(language.x + language.width);
      // The buttons beside it stay whole and nothing is wider than the phone.
      const account = (await page
        .getByRole('button', { name: l.code === 'en' ? /^Account / : /^حساب / })
        .boundingBox())!;
      expect(account.x).toBeGreaterThanOrEqual(0);
      expect(account.x + account.width).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screenshot(page, info, 'top-bar-360', l.code, false);
    }
    await switcher(page).selectOption('en');
  });
});

test.describe('themes', () => {
  test('the theme settings change preset, dark mode, top bar, sidebar and layout, and restore defaults', async ({
    page,
    isMobile,
  }) => {
    await page.setViewportSize(isMobile ? { width: 412, height: 839 } : { width: 1366, height: 900 });
    await signIn(page, 'alice');
    await page.getByRole('button', { name: 'Theme settings' }).click();
    const drawer = page.getByRole('dialog', { name: 'Theme settings' });
    await expect(drawer).toBeVisible();

    const header = '.ant-layout-header';
    const layoutBg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The checked layout button is drawn in the primary colour.
    const primary = () =>
      page
        .locator('.ant-drawer .ant-radio-button-wrapper-checked')
        .first()
        .evaluate((el) => getComputedStyle(el).color);

    // Top bar themes 1-7.
    const topbar = drawer.getByRole('radiogroup', { name: 'Top bar colour' });
    const seen = new Set<string>();
    for (let n = 1; n <= 7; n++) {
      await topbar.getByRole('radio', { name: `Theme ${n}` }).click();
      await expect(topbar.getByRole('radio', { name: `Theme ${n}` })).toHaveAttribute('aria-checked', 'true');
      seen.add(await rgb(page, header));
    }
    expect(seen.size, 'seven different top bars').toBe(7);

    // Sidebar themes 1-7 (the drawer's menu on mobile, the sider elsewhere).
    const sidebar = drawer.getByRole('radiogroup', { name: 'Sidebar colour' });
    for (let n = 1; n <= 7; n++) {
      await sidebar.getByRole('radio', { name: `Theme ${n}` }).click();
      await expect(sidebar.getByRole('radio', { name: `Theme ${n}` })).toHaveAttribute('aria-checked', 'true');
      if (!isMobile)
        expect(await rgb(page, '.ant-layout-sider')).toBe(
          {
            1: 'rgb(255, 255, 255)',
            2: 'rgb(0, 21, 41)',
            3: 'rgb(74, 44, 18)',
            4: 'rgb(18, 55, 42)',
            5: 'rgb(59, 31, 92)',
            6: 'rgb(122, 16, 48)',
            7: 'rgb(31, 41, 55)',
          }[n],
        );
    }

    // Layout themes 1-3: the page background.
    const backgrounds = new Set<string>();
    for (let n = 1; n <= 3; n++) {
      await drawer.getByText(`Layout ${n}`, { exact: true }).click();
      await expect.poll(layoutBg).not.toBe('');
      backgrounds.add(await layoutBg());
    }
    expect(backgrounds.size, 'three page backgrounds').toBe(3);

    // Preset: default blue, custom pecan brown.
    await drawer.getByText('Custom', { exact: true }).click();
    await expect.poll(primary).toBe('rgb(138, 75, 20)');
    await drawer.getByText('Default', { exact: true }).click();
    await expect.poll(primary).toBe('rgb(9, 88, 217)');

    // Dark mode.
    await drawer.getByRole('switch', { name: 'Dark mode' }).click();
    await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
    expect(JSON.parse((await page.evaluate((k) => localStorage.getItem(k), THEME_KEY))!)).toMatchObject({
      dark: true,
      topbar: 7,
      sidebar: 7,
      layout: 3,
    });
    await page.reload();
    await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');

    await page.getByRole('button', { name: 'Theme settings' }).click();
    await page.getByRole('button', { name: 'Restore defaults' }).click();
    await expect(page.locator('html')).toHaveCSS('color-scheme', 'light');
    expect(await rgb(page, header)).toBe('rgb(255, 255, 255)');
  });
});

test.describe('widths', () => {
  test.skip(({ isMobile }) => isMobile, 'resizes a desktop window through the three widths');

  test('desktop shows the sidebar open, tablet collapsed, mobile a menu button with a drawer', async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, 'alice');
    const sider = page.locator('.ant-layout-sider');
    await expect(sider).toBeVisible();
    expect((await sider.boundingBox())!.width).toBe(248);
    await expect(page.getByRole('button', { name: 'Collapse menu' })).toBeVisible();

    // Tablet: 768-1220 starts collapsed and can be opened and closed again.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(80);
    await page.getByRole('button', { name: 'Expand menu' }).click();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(248);
    await page.getByRole('button', { name: 'Collapse menu' }).click();
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(80);

    // The line itself: 1221 is desktop (open), 1220 tablet (collapsed again). The sider is collapsed before the
    // window crosses the line, so each step waits for a change the crossing makes: had it been left open, the wait
    // at 1221 would pass at once and both resizes could reach the page in one frame, never crossing to desktop.
    await page.setViewportSize({ width: 1221, height: 800 });
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(248);
    await page.setViewportSize({ width: 1220, height: 800 });
    await expect.poll(async () => (await sider.boundingBox())?.width).toBe(80);

    // Mobile: 767 and below, no sider; the menu opens in a drawer and closes on navigation.
    await page.setViewportSize({ width: 767, height: 800 });
    await expect(sider).toHaveCount(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await expect(nav).toBeVisible();
    await nav.getByRole('menuitem', { name: 'Help' }).click();
    await expect(page).toHaveURL(/\/dashboard\/help$/);
    await expect(nav).toBeHidden();
    // Nothing is wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(767);
  });
});

import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { captureEverywhere, registerViaApi, signInAsStaff, uniqueEmail, VIEWPORTS } from './support';

/**
 * The admin area's menu in groups (a side column on desktop, a menu button on a phone), the skip
 * link, one `main` and headings in order on every page, and the 404 of a path no page serves.
 */

/** A screen of each group, opened through the menu. */
const SECTIONS = [
  { group: 'Bewerbungen', entry: 'Meine Prüfungen', path: '/admin/pruefungen', slug: 'applications' },
  { group: 'Veranstaltungstag', entry: 'Auto-Quartett', path: '/admin/quartett', slug: 'event-day' },
  { group: 'Kommunikation', entry: 'E-Mail-Vorlagen', path: '/admin/mail-vorlagen', slug: 'communication' },
  { group: 'Verwaltung', entry: 'Team', path: '/admin/team', slug: 'management' },
] as const;

/** Every screen of the admin area the web client serves. */
const ADMIN_PAGES = [
  '/admin/dashboard',
  '/admin/pruefungen',
  '/admin/check-in',
  '/admin/einlass',
  '/admin/quartett',
  '/admin/besucher',
  '/admin/besucher-updates',
  '/admin/mail-vorlagen',
  '/admin/texte',
  '/admin/ausgaben',
  '/admin/pruefung',
  '/admin/team',
  '/admin/protokoll',
  '/admin/datenschutz',
];

const PUBLIC_PAGES = [
  '/',
  '/login',
  '/register',
  '/forgot-password',
  '/visitor-registration',
  '/impressum',
  '/datenschutz',
  '/reset-password',
  '/email-bestaetigen',
  '/email-aenderung-abbrechen',
  '/einladung',
  '/einladung/absagen',
  '/besucher/abmelden',
  '/besucher/bestaetigen',
  '/besucher/naechstes-treffen',
  '/rueckblick/2020',
  '/gibt-es-nicht',
];
const ACCOUNT_PAGES = ['/dashboard', '/profile', '/apply', '/edit/gibt-es-nicht'];

const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Adminbereich' });

async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/** The page's heading levels in order: one h1, first, and no level skipped on the way down. */
async function expectHeadingsInOrder(page: Page, label: string): Promise<void> {
  const levels = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')]
      .filter((heading) => heading.getClientRects().length > 0)
      .map((heading) => Number(heading.tagName.slice(1))),
  );
  expect(
    levels.filter((level) => level === 1),
    `${label}: one h1 (${levels.join(' ')})`,
  ).toHaveLength(1);
  expect(levels[0], `${label}: the h1 comes first (${levels.join(' ')})`).toBe(1);
  levels.forEach((level, index) => {
    if (index > 0)
      expect(level, `${label}: headings ${levels.join(' ')}`).toBeLessThanOrEqual(levels[index - 1]! + 1);
  });
}

/**
 * One `main` with the skip link's target, a skip link first, headings in order, big enough targets.
 * Sections rendered only when near the viewport are rendered first: boxes measured inside skipped
 * content overlap the placeholders around them, which axe would take for covered targets.
 */
async function expectLandmarksAndHeadings(page: Page, label: string): Promise<void> {
  await page.evaluate(() => {
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (getComputedStyle(element).contentVisibility === 'auto') element.style.contentVisibility = 'visible';
    }
  });
  await expect(page.locator('main')).toHaveCount(1);
  await expect(page.locator('main')).toHaveAttribute('id', 'inhalt');
  await expect(page.locator('a[href], button, input, select, textarea').first()).toHaveText(
    'Zum Inhalt springen',
  );
  await expectHeadingsInOrder(page, label);
  const result = await new AxeBuilder({ page })
    .withRules([
      'landmark-one-main',
      'landmark-no-duplicate-main',
      'page-has-heading-one',
      'heading-order',
      'bypass',
      'skip-link',
      'target-size',
    ])
    .analyze();
  const found = result.violations.map(
    (v) =>
      `${v.id}: ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary})`).join(', ')}`,
  );
  expect(found, `axe on ${label}`).toEqual([]);
}

test('the admin menu opens a screen of each group on desktop and phone, and no admin page scrolls sideways', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAsStaff(page, 'admin', 'Ada');

  // Desktop: the side column lists every group with its screens.
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto('/admin/dashboard');
  const nav = adminNav(page);
  await expect(nav.getByRole('link', { name: 'Bewerbungen', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  for (const section of SECTIONS) {
    await nav.getByRole('link', { name: section.entry, exact: true }).click();
    await expect(page).toHaveURL(section.path);
    await expect(nav.getByRole('link', { name: section.entry, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(nav.locator('[aria-current="page"]:visible')).toHaveCount(1);
    await expect(page.locator('main h1')).toBeVisible();
    await expectNoSidewaysScroll(page, `${section.path} (desktop)`);
  }

  // Phone: a button names the current group and screen; its menu lists them all.
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto('/admin/dashboard');
  for (const section of SECTIONS) {
    await adminNav(page).getByRole('button', { expanded: false }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('group')).toHaveCount(4);
    await menu.getByRole('menuitem', { name: section.entry, exact: true }).click();
    await expect(page).toHaveURL(section.path);
    await expect(menu).toBeHidden();
    const button = adminNav(page).getByRole('button', {
      name: `${section.group} ${section.entry}`,
      exact: true,
    });
    await expect(button).toBeInViewport();
    await expect(page.locator('main h1')).toBeVisible();
    await expectNoSidewaysScroll(page, `${section.path} (phone)`);
    // Scrolled down, the current screen's name stays in sight.
    await page.mouse.wheel(0, 2000);
    await expect(button).toBeInViewport();

    await captureEverywhere(page, `admin-menu-${section.slug}`, async () => {
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(page.locator('main h1')).toBeVisible();
    });
    await page.setViewportSize(VIEWPORTS.phone);
  }

  // The menu open on a phone, its current entry marked; reached by keyboard too.
  await captureEverywhere(page, 'admin-menu-open', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    if (page.viewportSize()?.width !== VIEWPORTS.phone.width) {
      await page.keyboard.press('Escape');
      return;
    }
    const button = adminNav(page).getByRole('button', { name: 'Verwaltung Team', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    const team = page.getByRole('menuitem', { name: 'Team', exact: true });
    await expect(team).toHaveAttribute('aria-current', 'page');
    // It opens at the screen on show.
    await expect(team).toHaveAttribute('data-highlighted', '');
    await expect(team).toBeInViewport();
  });
  await page.keyboard.press('Escape');

  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expectNoSidewaysScroll(page, `${path} (${viewport})`);
    }
  }
});

test("a reviewer's menu holds the screens of the role only", async ({ page }) => {
  await signInAsStaff(page, 'reviewer', 'Rita');
  await page.goto('/admin/pruefungen');
  const nav = adminNav(page);
  await expect(nav.getByRole('list')).toHaveCount(2);
  await expect(nav.getByRole('link')).toHaveText(['Bewerbungen', 'Meine Prüfungen', 'Check-in', 'Einlass']);
  await page.setViewportSize(VIEWPORTS.phone);
  await nav.getByRole('button', { name: 'Bewerbungen Meine Prüfungen', exact: true }).click();
  await expect(page.getByRole('menuitem')).toHaveText([
    'Bewerbungen',
    'Meine Prüfungen',
    'Check-in',
    'Einlass',
  ]);
});

test('the first Tab reaches the skip link, Enter the content, on public pages', async ({ page }) => {
  for (const [path, target] of [
    ['/', page.locator('main')],
    ['/login', page.locator('main')],
  ] as const) {
    await page.goto(path);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Zum Inhalt springen' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    expect((await skip.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(24);
    if (path === '/') await captureEverywhere(page, 'skip-link', () => skip.focus());
    await page.keyboard.press('Enter');
    await expect(target).toBeFocused();
    await expect(page).toHaveURL(path);
  }
});

test('on an admin screen the skip link leads past the header and the admin menu', async ({ page: staff }) => {
  await signInAsStaff(staff, 'admin', 'Ada');
  await staff.goto('/admin/team');
  await expect(staff.locator('main h1')).toBeVisible();
  await staff.keyboard.press('Tab');
  await expect(staff.getByRole('link', { name: 'Zum Inhalt springen' })).toBeFocused();
  await staff.keyboard.press('Enter');
  await expect(staff.locator('main [data-skip-target]')).toBeFocused();
  await staff.keyboard.press('Tab');
  const next = await staff.evaluate(() => ({
    inMenu: Boolean(document.activeElement?.closest('nav')),
    inMain: Boolean(document.activeElement?.closest('main')),
  }));
  expect(next).toEqual({ inMenu: false, inMain: true });
});

test('every page has one main, a skip link first and headings in order; a path no page serves is a 404', async ({
  page,
}) => {
  test.setTimeout(240_000);
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expectLandmarksAndHeadings(page, `${path} (${viewport})`);
    }
  }

  // The FAQ's questions on a phone, where a visitor scrolls to them: targets of at least 24 px.
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto('/');
  const faq = page.locator('#faq');
  const question = faq.getByRole('button').first();
  // The sections above it take their size as they come near: scroll until it stays in sight.
  await expect(async () => {
    await question.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await expect(question).toBeInViewport({ timeout: 500 });
  }).toPass();
  expect((await question.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(24);
  const faqTargets = await new AxeBuilder({ page }).include('#faq').withRules(['target-size']).analyze();
  expect(faqTargets.violations.map((v) => v.nodes.map((n) => n.failureSummary))).toEqual([]);

  const missing = await page.request.get('/gibt-es-nicht');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('404 Page Not Found');
  for (const path of ['/', '/login', '/register'])
    expect((await page.request.get(path)).status(), path).toBe(200);
  const response = await page.goto('/gibt-es-nicht');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
  await captureEverywhere(page, 'not-found');
  await page.getByRole('main').getByRole('link', { name: 'Zur Startseite' }).click();
  await expect(page).toHaveURL('/');

  const email = uniqueEmail('owner');
  await registerViaApi(page.request, { email, firstName: 'Lena', lastName: 'Weber' });
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const path of ACCOUNT_PAGES) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expectLandmarksAndHeadings(page, `${path} (${viewport})`);
    }
  }

  await signInAsStaff(page, 'admin', 'Ada');
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    for (const path of ADMIN_PAGES) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expectLandmarksAndHeadings(page, `${path} (${viewport})`);
    }
  }
});

import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

/**
 * The public pages arrive as HTML with their first screen and data, and the browser takes them
 * over without a visible change and without asking for anything that fails.
 */

/** Console errors, failed requests, answers ≥ 400 and current-user calls while `run` goes on. */
async function watch(page: Page, run: () => Promise<void>) {
  const problems: string[] = [];
  const userCalls: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/user')) userCalls.push(request.url());
  });
  await run();
  return { problems, userCalls };
}

const hydrated = (page: Page) => page.waitForFunction(() => !('$_TSR' in window));

test('the public pages arrive rendered, with their data, every inline script allowed by its hash', async ({
  request,
}) => {
  const pages = [
    ['/', 'Tuning-Treffen am Schloss'],
    ['/register', 'Registrieren'],
    ['/login', 'Anmelden'],
    ['/visitor-registration', 'Besuchervoranmeldung'],
  ] as const;
  for (const [path, text] of pages) {
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const root = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';
    expect(root, path).toContain(text);
    // The header as signed out, without asking the browser.
    expect(root, path).toContain('Als Besucher vormerken');

    // Kept for every visitor who is not signed in: no nonce (one for all would be none), the
    // router's inline scripts allowed by their hashes, nothing else inline.
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp, path).not.toMatch(/nonce-|unsafe-inline/);
    expect(res.headers()['etag'], path).toBeTruthy();
    const scriptSources = /script-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    let inline = 0;
    for (const [, attributes, content] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (attributes!.includes('type="application/json"') || / src="\/assets\//.test(attributes!)) continue;
      inline += 1;
      const hash = `'sha256-${createHash('sha256').update(content!).digest('base64')}'`;
      expect(scriptSources, `${path}: <script${attributes}>`).toContain(hash);
    }
    expect(inline, path).toBeGreaterThan(0);
  }

  // The landing page's first screen: the hero text and the countdown's target, the event's start.
  const html = await (await request.get('/')).text();
  const config = JSON.parse(
    /<script type="application\/json" id="site-config">(.*?)<\/script>/.exec(html)![1]!,
  ) as {
    eventName: string;
    eventStart: string;
  };
  expect(html).toContain(`<h1 id="hero-title"`);
  expect(html).toContain(`>${config.eventName}</h1>`);
  expect(html).toContain(`data-target="${config.eventStart}"`);
  expect(html).toContain('Individuell getunte Fahrzeuge vor der Kulisse eines historischen Schlosses');
});

test('the landing page is taken over without a visible change and asks for nothing that fails', async ({
  page,
}) => {
  const { problems, userCalls } = await watch(page, async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/', { waitUntil: 'networkidle' });
    // Until the visitor reaches for the page, only the small entry runs: the app is not loaded.
    expect(await page.evaluate(() => '$_TSR' in window)).toBe(true);
    const countdown = page.locator('[role="timer"], [data-testid="countdown-panel"]');
    const shot = () => page.screenshot({ animations: 'disabled', mask: [countdown] });
    const before = await shot();

    await page.keyboard.press('Shift');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect((await shot()).equals(before), 'the first screen changed when the app took over').toBe(true);

    // The app is live: the menu opens.
    await page.getByRole('button', { name: /Menü/ }).click();
    await expect(page.getByRole('button', { name: /Menü/ })).toHaveAttribute('aria-expanded', 'true');
  });
  expect(problems).toEqual([]);
  expect(userCalls).toEqual([]);
});

test('a button pressed before the app is live is pressed again once it is', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: /Menü/ }).click();
  await expect(page.getByRole('button', { name: /Menü/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('link', { name: 'Anmelden' })).toBeVisible();
});

test('the other public pages hydrate at once, and no first load asks for the current user', async ({
  page,
}) => {
  for (const path of ['/login', '/register', '/visitor-registration', '/forgot-password', '/dashboard']) {
    const { problems, userCalls } = await watch(page, async () => {
      await page.goto(path, { waitUntil: 'networkidle' });
      if (path !== '/dashboard') await hydrated(page);
    });
    expect(problems, path).toEqual([]);
    expect(userCalls, path).toEqual([]);
    page.removeAllListeners();
  }
  // Signed out, the dashboard (rendered in the browser) leads to the login.
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard/);
});

test('text typed and a form sent before the app is live are handed to it, never sent natively', async ({
  page,
}) => {
  // Hold the app back, as a slow connection would.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/app-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login');
  await page.getByLabel('Email').fill('kein-at-zeichen');
  await page.getByLabel('Passwort').fill('geheimes-passwort');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  expect(await page.evaluate(() => '$_TSR' in window)).toBe(true);
  release();
  await hydrated(page);
  // The app got the typed text and the submission: its validation answers.
  await expect(page.getByText('Ungültige Email-Adresse')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('kein-at-zeichen');
  expect(new URL(page.url()).search).toBe('');
});

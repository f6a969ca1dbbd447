import { expect, test } from '@playwright/test';

/**
 * The browser the tests run in (see `disabledFeatures` in playwright.config.ts): Chromium reads only
 * the last --disable-features, so ours must still hold every feature Playwright turns off, and a new
 * page must open no WebUI page of the browser's own beside it (each cost 1.3–2 s of CPU per page).
 */
test('the browser keeps Playwright’s switches and opens no WebUI page of its own per page', async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
    await cdp.detach();
    const own = targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url);
    expect(own).toEqual([]);

    await page.goto('chrome://version');
    const commandLine = (await page.locator('#command_line').textContent()) ?? '';
    const lists = [...commandLine.matchAll(/--disable-features=(\S*)/g)].map((match) => match[1]!.split(','));
    // Playwright's own list first, ours last (the one Chromium reads).
    expect(lists.length).toBeGreaterThanOrEqual(2);
    const [playwright, ours] = [lists[0]!, lists.at(-1)!];
    expect(playwright.filter((feature) => !ours.includes(feature))).toEqual([]);
    expect(ours).toEqual(expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']));
  } finally {
    await context.close();
  }
});

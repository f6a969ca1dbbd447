import { expect, test, type Page } from '@playwright/test';
import { captureEverywhere } from './support';

/**
 * The landing page before, during and after the event, each with the browser's clock pinned
 * relative to the configured event (read from the page's site config): no phase depends on today.
 */

async function eventOf(page: Page): Promise<{ start: number; end: number }> {
  await page.goto('/');
  const config = JSON.parse((await page.locator('#site-config').textContent()) ?? '{}') as {
    eventStart: string;
    eventEnd: string;
  };
  return { start: Date.parse(config.eventStart), end: Date.parse(config.eventEnd) };
}

const DAY = 86_400_000;

test('the countdown runs before the event, says it is on during it, and looks back after it', async ({
  page,
}) => {
  const { start, end } = await eventOf(page);

  await test.step('three days, four hours and five minutes before', async () => {
    await page.clock.install({ time: start - 3 * DAY - 4 * 3_600_000 - 5 * 60_000 });
    await page.goto('/');
    const timer = page.getByRole('timer');
    await expect(timer).toBeVisible();
    await expect(page.getByTestId('countdown-panel')).toHaveCount(0);
    await expect(timer).toContainText('03');
    await expect(timer).toContainText('04');
    await captureEverywhere(page, 'landing-before-event');
  });

  await test.step('during the event', async () => {
    await page.clock.setFixedTime(start + 3_600_000);
    await page.goto('/');
    const panel = page.getByTestId('countdown-panel');
    await expect(panel).toHaveAttribute('data-phase', 'running');
    await expect(page.getByTestId('countdown-message')).toHaveText('Das Schlosstreffen läuft gerade!');
    await captureEverywhere(page, 'landing-during-event');
  });

  await test.step('after the event', async () => {
    await page.clock.setFixedTime(end + 30 * DAY);
    await page.goto('/');
    await expect(page.getByTestId('countdown-panel')).toHaveAttribute('data-phase', 'ended');
    await expect(page.getByTestId('countdown-message')).toContainText('ist vorbei – danke an alle!');
    await captureEverywhere(page, 'landing-after-event');
  });
});

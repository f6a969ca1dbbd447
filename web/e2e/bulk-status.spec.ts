import { expect, test, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  applicantWithVehicle,
  BASE_URL,
  expectAccessible,
  SCREENSHOT_DIR,
  setVehicleStatus,
  signInAsStaff,
  VIEWPORTS,
  waitForMail,
} from './support';

/**
 * The reviewers' bulk status change in the built app: selection mode, the bar, the preview with the
 * mails and their recipients, a row someone else changed meanwhile, the outcome, the mails.
 */

/** What is on screen (the bar is fixed to the bottom) at both sizes, after axe. */
async function captureScreen(page: Page, name: string, ready?: () => Promise<void>): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await ready?.();
    await page.waitForTimeout(700);
    await expectAccessible(page, `${name} (${viewport})`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${viewport}.png`) });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

test('a reviewer moves several applications to the waitlist at once; a stale one is refused alone', async ({
  page,
  browser,
}) => {
  const run = Date.now().toString(36).slice(-5);
  const applicants = await (async () => {
    const context = await browser.newContext({ baseURL: BASE_URL });
    const created = [];
    for (const [model, name] of [
      ['Corrado', 'Sonnenschein'],
      ['Scirocco', null],
      ['Golf', 'Grüner Blitz'],
      ['Polo', null],
    ] as const) {
      created.push(
        await applicantWithVehicle(context.request, {
          brand: 'VW',
          model: `${model} ${run}`,
          ...(name ? { name } : {}),
        }),
      );
    }
    await context.close();
    return created;
  })();

  await signInAsStaff(page, 'reviewer', 'Rita');
  await page.goto(`/admin/dashboard?status=submitted&q=${run}`);
  await expect(page.getByRole('article')).toHaveCount(4);

  await page.getByRole('button', { name: 'Mehrere auswählen' }).click();
  await expect(page.getByRole('button', { name: 'Alle 4 Treffer auswählen' })).toBeVisible();
  for (const title of ['Sonnenschein', `VW Scirocco ${run}`, 'Grüner Blitz']) {
    const box = page.getByRole('checkbox', { name: `${title} auswählen` });
    // The box over the card's picture (its input is visually hidden, as Ark's are).
    await page.locator('[data-scope="checkbox"][data-part="root"]', { has: box }).click();
    await expect(box).toBeChecked();
  }
  const bar = page.getByRole('region', { name: 'Auswahl' });
  await expect(bar).toContainText('3 ausgewählt');
  await bar.getByRole('combobox', { name: 'Neuer Status' }).click();
  await page.getByRole('option', { name: 'Warteliste' }).click();
  // On a phone the grid renders the rows near the screen only: to the list first, then to a chosen card.
  await captureScreen(page, 'admin-bulk-selection', async () => {
    if ((page.viewportSize()?.width ?? 0) >= 768) return;
    await page.getByRole('list', { name: /^Fahrzeuge:/ }).scrollIntoViewIfNeeded();
    await page.getByRole('article', { name: 'Grüner Blitz' }).scrollIntoViewIfNeeded();
  });

  await bar.getByRole('button', { name: 'Status ändern…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Status ändern' });
  await expect(dialog.getByText('Es werden 3 E-Mails versendet an:')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Empfänger' }).getByRole('listitem')).toHaveCount(3);
  await expect(dialog).toContainText('Du stehst auf der Warteliste – Schlosstreffen');
  await dialog.getByLabel('Interne Notiz (optional)').fill('Vorauswahl Runde 1');
  await captureScreen(page, 'admin-bulk-preview');

  // Someone else moves the Scirocco on before the change is confirmed.
  const other = await browser.newPage({ baseURL: BASE_URL });
  await signInAsStaff(other, 'admin', 'Anna');
  await setVehicleStatus(other.request, applicants[1]!.vehicleId, {
    status: 'in_review',
    oldStatus: 'submitted',
  });
  await other.close();

  await dialog.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(dialog.getByText('2 geändert, 1 abgelehnt')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Abgelehnt' })).toContainText(
    'Der Status wurde inzwischen geändert: jetzt „In Prüfung“ statt „Eingereicht“.',
  );
  await captureScreen(page, 'admin-bulk-result');
  await dialog.getByRole('button', { name: 'Schließen' }).last().click();
  await expect(bar).toBeHidden();
  // The list follows: the two moved ones left the 'Eingereicht' tab.
  await expect(page.getByRole('article')).toHaveCount(1);

  for (const applicant of [applicants[0]!, applicants[2]!]) {
    const mail = await waitForMail(applicant.email, /^Du stehst auf der Warteliste/);
    expect(mail.text).not.toContain('Vorauswahl');
  }
});

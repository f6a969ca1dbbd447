import { expect, test } from '@playwright/test';
import { BASE_URL, captureEverywhere, signInAsStaff } from './support';

/** The 'Protokoll' page in the built app: what staff did, filtered, with names and addresses. */
test('an admin reads who exported what, filters the log, and finds nothing for a filter without rows', async ({
  page,
  browser,
}) => {
  // A reviewer exports the applications, an admin the visitors and switches the waitlist rule.
  const reviewer = await browser.newContext({ baseURL: BASE_URL });
  const reviewerPage = await reviewer.newPage();
  await signInAsStaff(reviewerPage, 'reviewer', 'Rita');
  expect((await reviewerPage.request.get('/api/admin/vehicles.csv?status=submitted')).status()).toBe(200);
  await reviewer.close();

  await signInAsStaff(page, 'admin', 'Anna');
  expect((await page.request.get('/api/admin/visitors.csv')).status()).toBe(200);
  // Off and on again: the later tests (the waitlist's) rely on automatic moving up, the default.
  for (const autoMoveUp of [false, true]) {
    const waitlist = await page.request.put('/api/admin/waitlist/settings', {
      headers: { Origin: BASE_URL },
      data: { autoMoveUp },
    });
    expect(waitlist.status()).toBe(200);
  }

  await page.goto('/admin/protokoll');
  await expect(page.getByRole('heading', { level: 1, name: 'Protokoll' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Protokoll' });
  await expect(table).toContainText('Bewerbungen als CSV exportiert');
  await expect(table).toContainText('Rita Team');
  await expect(table).toContainText('Besucherliste als CSV exportiert');
  await expect(table).toContainText('Automatisches Nachrücken umgeschaltet');
  // The role changes came from the command line.
  await expect(table).toContainText('Kommandozeile');
  await captureEverywhere(page, 'admin-audit-log');

  // One action only: the filter is in the URL, and the other rows are gone.
  await page.getByRole('combobox', { name: 'Aktion' }).click();
  await page.getByRole('option', { name: 'Besucherliste als CSV exportiert' }).click();
  await expect(page).toHaveURL(/action=visitors\.export_csv/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Anna Team');

  // A range before anything happened.
  await page.getByLabel('Von').fill('2020-01-01');
  await page.getByLabel('Bis').fill('2020-01-31');
  await expect(page.getByRole('heading', { name: 'Keine Einträge gefunden' })).toBeVisible();
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).click();
  await expect(table).toContainText('Bewerbungen als CSV exportiert');

  // Reviewers have no such page.
  const other = await browser.newContext({ baseURL: BASE_URL });
  const otherPage = await other.newPage();
  await signInAsStaff(otherPage, 'reviewer', 'Rolf');
  await otherPage.goto('/admin/protokoll');
  await expect(otherPage.getByRole('heading', { name: 'Zugriff verweigert' })).toBeVisible();
  await expect(otherPage.getByRole('link', { name: 'Protokoll' })).toHaveCount(0);
  await other.close();
});

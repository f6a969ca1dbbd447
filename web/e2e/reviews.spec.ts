import { expect, test, type Page } from '@playwright/test';
import { REVIEW_MESSAGES } from '@schlosstreffen/shared';
import {
  adminDialogOf,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  signInAsStaff,
  sql,
  SUBMISSION_CONSENTS,
} from './support';

/**
 * Review at scale, in the browser: a submitted application is assigned to both reviewers; each
 * scores it from 'Meine Prüfungen' without seeing the other's score first; then both see the mean
 * with its spread, and the admin sees the load per reviewer.
 */

async function openFromMyReviews(page: Page, title: string) {
  await page.goto('/admin/pruefungen');
  await expect(page.getByRole('heading', { name: 'Meine Prüfungen' })).toBeVisible();
  const row = page
    .getByRole('list', { name: 'Offene Prüfungen' })
    .getByRole('listitem')
    .filter({ hasText: title });
  await row.getByRole('button', { name: /^Prüfen/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('tab', { name: 'Admin' })).toHaveAttribute('aria-selected', 'true');
  return dialog;
}

async function score(dialog: ReturnType<Page['getByRole']>, values: [number, number, number]) {
  await dialog.getByLabel(/Umbauqualität/).fill(String(values[0]));
  await dialog.getByLabel(/Originalität/).fill(String(values[1]));
  await dialog.getByLabel(/Gesamteindruck/).fill(String(values[2]));
  await dialog.getByRole('button', { name: 'Bewertung abgeben' }).click();
}

test("two reviewers score an application from 'Meine Prüfungen', blind to each other until both submitted", async ({
  page,
  browser,
}) => {
  // Only this test's reviewers review (reviewers of earlier tests step aside).
  await sql(`update users set role = 'user' where role = 'reviewer'`);
  await signInAsStaff(page, 'admin', 'Ada');
  const rita = await browser.newContext({ baseURL: BASE_URL });
  const ritaPage = await rita.newPage();
  await signInAsStaff(ritaPage, 'reviewer', 'Rita');
  const rolf = await browser.newContext({ baseURL: BASE_URL });
  const rolfPage = await rolf.newPage();
  await signInAsStaff(rolfPage, 'reviewer', 'Rolf');

  const applicants = await browser.newContext({ baseURL: BASE_URL });
  const title = 'Lancia Delta Integrale Evo';
  await applicantWithVehicle(applicants.request, { brand: 'Lancia', model: 'Delta Integrale Evo' });
  await applicants.close();

  // Rita scores first (default weights 2, 1, 1): (2·9 + 6 + 7) / 4 = 7,75.
  let dialog = await openFromMyReviews(ritaPage, title);
  await score(dialog, [9, 6, 7]);
  await expect(dialog.getByText(/7,75 · 1 von 2 Bewertungen abgegeben/)).toBeVisible();
  await ritaPage.keyboard.press('Escape');

  // Rolf sees that Rita submitted, but not her scores.
  dialog = await openFromMyReviews(rolfPage, title);
  await expect(dialog.getByText('Sichtbar, sobald Sie Ihre Bewertung abgegeben haben').first()).toBeVisible();
  await expect(dialog.getByText('Umbauqualität 9')).toHaveCount(0);
  await captureEverywhere(rolfPage, 'review-blind');
  await score(dialog, [7, 8, 8]);
  // Rolf: (14 + 8 + 8) / 4 = 7,5; mean 7,63 (spread 7,5–7,75).
  await expect(dialog.getByText(/7,63 \(Spanne 7,5–7,75\) · 2 von 2 Bewertungen abgegeben/)).toBeVisible();
  await expect(
    dialog.getByText('Umbauqualität 9 · Originalität 6 · Gesamteindruck 7', { exact: true }),
  ).toBeVisible();
  await rolfPage.keyboard.press('Escape');
  await expect(rolfPage.getByRole('list', { name: 'Abgegebene Prüfungen' })).toContainText(title);
  await captureEverywhere(rolfPage, 'my-reviews');

  // The admin sees the load per reviewer and the categories.
  await page.goto('/admin/pruefung');
  await expect(page.getByRole('heading', { name: 'Prüfung', exact: true })).toBeVisible();
  const load = page.getByRole('region', { name: 'Auslastung' });
  // Rita's submitted reviews: this one.
  await expect(load.getByRole('row').filter({ hasText: 'Rita' }).getByRole('cell').nth(2)).toHaveText('1');
  await expect(page.getByLabel('Name').first()).toHaveValue('Umbauqualität');
  await captureEverywhere(page, 'review-settings');
  await rita.close();
  await rolf.close();
});

test("a reviewer who applied is told why she does not act on her own application; 'Prüfung' marks it 'unterbesetzt'", async ({
  page,
  browser,
}) => {
  // Rita is the only reviewer: owning the car, she leaves nobody to review it.
  await sql(`update users set role = 'user' where role = 'reviewer'`);
  await signInAsStaff(page, 'admin', 'Ada');
  const rita = await browser.newContext({ baseURL: BASE_URL });
  const ritaPage = await rita.newPage();
  await signInAsStaff(ritaPage, 'reviewer', 'Rita');
  const created = await ritaPage.request.post('/api/vehicles', {
    headers: { Origin: BASE_URL },
    data: {
      brand: 'Alpine',
      model: 'A110 1600S',
      year: 1971,
      ps: 138,
      weightKg: 700,
      topSpeedKmh: 215,
      zeroToHundredS: 6.8,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const title = 'Alpine A110 1600S';

  const dialog = await adminDialogOf(ritaPage, 'Alpine', title);
  await expect(dialog.getByText(REVIEW_MESSAGES.conflictOwn)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Bewertung abgeben' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Status aktualisieren' })).toHaveCount(0);
  await captureEverywhere(ritaPage, 'review-own-application');

  await page.goto('/admin/pruefung');
  await expect(
    page.getByRole('list', { name: `Bewerbungen, ${REVIEW_MESSAGES.understaffed}` }),
  ).toContainText(title);
  await captureEverywhere(page, 'review-understaffed');
  await rita.close();
});

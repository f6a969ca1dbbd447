import { expect, test } from '@playwright/test';
import {
  adminVehicle,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  pdfQrCodes,
  readDownload,
  setVehicleStatus,
  signInAsStaff,
} from './support';

/** The windshield signs in the built app: the admin's print set, the owner's own sign, the dialog's. */

test('an admin prints the signs, the owner downloads the own sign from the dashboard', async ({
  page,
  browser,
}) => {
  const ownerContext = await browser.newContext({ baseURL: BASE_URL });
  const { vehicleId } = await applicantWithVehicle(ownerContext.request, {
    brand: 'Lancia',
    // A model and name no other spec's car has: the specs share one database and edition.
    model: 'Delta HF Integrale Evo Schild',
    name: 'Scheibendea',
  });

  await signInAsStaff(page, 'admin', 'Arne');
  // Invited, the worker gives the car its start number and zone; confirmed, it gets a sign.
  await setVehicleStatus(page.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  await expect
    .poll(async () => (await adminVehicle(page.request, vehicleId)).invitation?.startNumber, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await setVehicleStatus(page.request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  const { startNumber } = (await adminVehicle(page.request, vehicleId)).invitation!;

  await page.goto('/admin/windschilder');
  await expect(page.getByRole('heading', { name: 'Windschilder', level: 1 })).toBeVisible();
  const a4 = page.getByRole('article', { name: 'A4 quer, ein Schild je Seite' });
  await expect(a4).toContainText('Noch nicht erstellt.');
  await a4.getByRole('button', { name: /Erstellen/ }).click();
  const download = a4.getByRole('link', { name: /PDF herunterladen/ });
  await expect(download).toBeVisible({ timeout: 60_000 });
  await expect(a4).toContainText('Fertig');
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/^Windschilder-\d{4}-A4\.pdf$/);
  expect((await readDownload(file)).subarray(0, 5).toString()).toBe('%PDF-');
  await captureEverywhere(page, 'admin-windschilder');

  // The vehicle's dialog offers the car's sign to staff.
  await page.goto('/admin/dashboard');
  await page.getByPlaceholder('Suche nach Marke oder Modell...').fill('integrale evo schild');
  await page
    .getByRole('article')
    .filter({ hasText: 'Scheibendea' })
    .getByRole('button', { name: 'Scheibendea' })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('button', { name: 'Windschild herunterladen (Scheibendea)' })).toBeVisible();
  await captureEverywhere(page, 'admin-vehicle-windschild');

  const owner = await ownerContext.newPage();
  await owner.goto('/dashboard');
  const card = owner.getByRole('article', { name: 'Scheibendea' });
  const button = card.getByRole('button', { name: 'Windschild herunterladen (Scheibendea)' });
  await expect(button).toBeVisible();
  const [own] = await Promise.all([owner.waitForEvent('download'), button.click()]);
  expect(own.suggestedFilename()).toMatch(new RegExp(`^Windschild-\\d{4}-Nr-${startNumber}\\.pdf$`));
  const sign = await readDownload(own);
  expect(sign.subarray(0, 5).toString()).toBe('%PDF-');
  await captureEverywhere(owner, 'dashboard-windschild');

  // The sign's QR code, scanned from the printed page, opens the car's page.
  const [code] = await pdfQrCodes(sign);
  expect(code).toMatch(new RegExp(`^${BASE_URL}/fahrzeuge/\\d{4}/${startNumber}$`));
  const visitor = await browser.newPage();
  await visitor.goto(code!);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Scheibendea' })).toBeVisible();
  await expect(visitor.getByText(String(startNumber), { exact: true })).toBeVisible();
  await visitor.close();
  await ownerContext.close();
});

import { chromium, expect, test } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { fakeCameraArgs, writeQrY4m } from './fake-camera';
import {
  applicantWithVehicle,
  attachPhoto,
  BASE_URL,
  captureEverywhere,
  field,
  linkIn,
  mailAttachment,
  makeJpeg,
  registerViaApi,
  signInAsStaff,
  uniqueEmail,
  waitForMail,
  readDownload,
} from './support';

/** The admin area in the built app: review, invitation mail, check-in by camera, quartett export. */

test('a reviewer invites a car, its mailed QR code checks it in by camera, a second scan says already', async ({
  page,
  browser,
}) => {
  const owner = await browser.newContext({ baseURL: BASE_URL });
  const { email: ownerEmail } = await applicantWithVehicle(owner.request, {
    brand: 'Lancia',
    model: 'Delta HF Integrale',
    name: 'Dea',
  });
  await owner.close();

  await signInAsStaff(page, 'reviewer', 'Rita');
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // Filter by status, then search case-insensitively by model.
  await page.getByRole('tab', { name: /Eingereicht/ }).click();
  await page.getByPlaceholder('Suche nach Marke oder Modell...').fill('delta hf');
  const card = page.getByRole('article').filter({ hasText: 'Dea' });
  await expect(card).toHaveCount(1);
  await captureEverywhere(page, 'admin-dashboard');

  await card.getByRole('button', { name: 'Dea' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: /Lancia Delta HF Integrale/ })).toBeVisible();
  await dialog.getByRole('tab', { name: 'Admin' }).click();
  const update = dialog.getByRole('button', { name: 'Status aktualisieren' });
  await expect(update).toBeDisabled();
  await dialog.getByRole('combobox', { name: /Status/ }).click();
  await page.getByRole('option', { name: 'Eingeladen' }).click();
  await dialog.getByLabel('Interne Notiz (optional)').fill('Top Zustand, Startplatz vorne');
  await update.click();
  await expect(page.getByText('Status aktualisiert', { exact: true })).toBeVisible();
  const history = dialog.getByRole('list', { name: 'Änderungsverlauf' });
  await expect(history.getByRole('listitem').first()).toContainText('Eingereicht');
  await expect(history.getByRole('listitem').first()).toContainText('Eingeladen');
  await expect(history.getByRole('listitem').first()).toContainText('Top Zustand, Startplatz vorne');
  await expect(history.getByRole('listitem').first()).toContainText('Rita');
  await captureEverywhere(page, 'admin-vehicle-dialog');
  await page.keyboard.press('Escape');

  // The owner's invitation mail carries the QR code; the gate's camera reads it.
  const mail = await waitForMail(ownerEmail, /Einladung/);
  expect(mail.text).not.toContain('Top Zustand');
  // The gate lets in confirmed cars only: the owner confirms with the mail's link.
  const token = new URL(linkIn(mail, `${BASE_URL}/einladung?token=`)).searchParams.get('token');
  const confirmed = await page.request.post('/api/invitations/confirm', {
    headers: { Origin: BASE_URL },
    data: { token },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const video = path.join(os.tmpdir(), `schlosstreffen-qr-${Date.now()}.y4m`);
  await writeQrY4m(await mailAttachment(mail), video);

  const gateBrowser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-dev-shm-usage', ...fakeCameraArgs(video)],
  });
  try {
    const gate = await gateBrowser.newContext({
      baseURL: BASE_URL,
      storageState: await page.context().storageState(),
      viewport: { width: 390, height: 844 },
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    await gate.grantPermissions(['camera']);
    const phone = await gate.newPage();
    await phone.goto('/admin/check-in');
    await phone.getByRole('button', { name: 'Kamera starten' }).click();
    const result = phone.getByRole('group', { name: 'Eingecheckt' });
    await expect(result).toBeVisible({ timeout: 20_000 });
    await expect(result).toContainText('Delta HF Integrale');
    await expect(result).toContainText('Dea');
    await phone.screenshot({
      path: path.join('test-results', 'screenshots', 'admin-check-in-scan-phone.png'),
    });

    // The same code, shown again after a pause, is a second scan: already checked in, with the time.
    await phone.getByRole('button', { name: 'Kamera stoppen' }).click();
    await phone.getByRole('button', { name: 'Nächstes Fahrzeug' }).click();
    await phone.waitForTimeout(4500);
    await phone.getByRole('button', { name: 'Kamera starten' }).click();
    await expect(phone.getByRole('group', { name: /Bereits eingecheckt um \d{2}:\d{2}/ })).toBeVisible({
      timeout: 20_000,
    });
    await gate.close();
  } finally {
    await gateBrowser.close();
  }

  // Typed at the desk: an unknown code is refused in German.
  await page.goto('/admin/check-in');
  await field(page, 'Check-in-Code oder Startnummer').fill('gibt-es-nicht-1234567890');
  await page.getByRole('button', { name: 'Einchecken' }).click();
  await expect(page.getByRole('group').filter({ hasText: /Unbekannter Check-in-Code/ })).toBeVisible();
  await captureEverywhere(page, 'admin-check-in');
});

test('an admin runs a quartett export and downloads the PDF', async ({ page, browser }) => {
  const owner = await browser.newContext({ baseURL: BASE_URL });
  const { vehicleId } = await applicantWithVehicle(owner.request, { brand: 'Audi', model: 'Sport quattro' });
  const photo = await makeJpeg(path.join(os.tmpdir(), 'schlosstreffen-e2e'), 'sport-quattro.jpg', 7);
  await attachPhoto(owner.request, vehicleId, photo);
  await owner.close();

  await signInAsStaff(page, 'admin', 'Arne');
  // Confirmed vehicles make the cards.
  const confirmed = await page.request.patch(`/api/admin/vehicles/${vehicleId}/status`, {
    headers: { Origin: BASE_URL },
    data: { status: 'confirmed', oldStatus: 'submitted' },
  });
  expect(confirmed.status()).toBe(200);

  await page.goto('/admin/quartett');
  await field(page, 'Titel').fill('Browsertest-Edition');
  await page.getByRole('button', { name: 'Export starten' }).click();
  const version = page.getByRole('listitem').filter({ hasText: 'Browsertest-Edition' });
  const download = version.getByRole('link', { name: /PDF herunterladen/ });
  await expect(download).toBeVisible({ timeout: 60_000 });
  await expect(version).toContainText('Fertig');

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const pdf = await readDownload(file);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(10_000);
  await captureEverywhere(page, 'admin-quartett');

  // The media library: every image, each downloadable, and all of them as one ZIP from the server.
  await page.goto('/admin/dashboard');
  await page.getByRole('tab', { name: /Medien/ }).click();
  await expect(page.getByText(/Insgesamt \d+ Bild/)).toBeVisible();
  await expect(page.getByText('Hauptbild').first()).toBeVisible();
  const [zip] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Alle herunterladen' }).click(),
  ]);
  expect(zip.suggestedFilename()).toMatch(/^schlosstreffen-medien-.*\.zip$/);
  const archive = await readDownload(zip);
  expect(archive.subarray(0, 2).toString()).toBe('PK');
  expect(archive.includes(Buffer.from('Audi_Sport_quattro_'))).toBe(true);
  await captureEverywhere(page, 'admin-media');

  await page.goto('/admin/besucher');
  await expect(page.getByRole('link', { name: /CSV herunterladen/ })).toBeVisible();
  await captureEverywhere(page, 'admin-visitors');

  await page.goto('/admin/datenschutz');
  await expect(page.getByText('Besucher-Voranmeldungen').first()).toBeVisible();
  await captureEverywhere(page, 'admin-retention');
});

test('a plain user sees Zugriff verweigert; a signed-out visit goes to /login', async ({ page }) => {
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%2Fdashboard/);

  await registerViaApi(page.request, { email: uniqueEmail('nutzer'), firstName: 'Nina', lastName: 'Nutz' });
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Zugriff verweigert' })).toBeVisible();
  await expect(
    page.getByText('Sie haben keine Berechtigung, auf das Admin-Dashboard zuzugreifen.').first(),
  ).toBeVisible();
  await captureEverywhere(page, 'admin-denied');
});

import { expect, test } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  adminVehicle,
  applicantWithVehicle,
  attachPhoto,
  makeJpeg,
  BASE_URL,
  pdfText,
  readDownload,
  captureEverywhere,
  field,
  setVehicleStatus,
  signInAsStaff,
  submitFromDashboard,
  waitForMail,
} from './support';

const PHOTOS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test-results/e2e-photos');

/**
 * The next edition: the admin creates it from this run's meeting on 'Ausgaben', opens it and puts it
 * on the landing page; the landing page shows its year without the cars of the last one, last year's
 * code is refused at the new gate, and the earlier edition stays readable through the 'Ausgabe'
 * switch. The specs after this one run on the earlier edition again: it is made current at the end.
 */

test('the admin runs the next edition: created from the last, opened and on the landing page; the last stays readable', async ({
  page,
  browser,
}) => {
  await signInAsStaff(page, 'admin', 'Anna');
  // This run's meeting lies weeks ahead (start-app.mjs): its year, and the next.
  const editions = (await (await page.request.get('/api/admin/editions')).json()) as {
    editions: Array<{ year: number; current: boolean }>;
  };
  const year = editions.editions.find((edition) => edition.current)!.year;
  const next = year + 1;
  const applicant = await browser.newContext({
    baseURL: BASE_URL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  const { email, vehicleId } = await applicantWithVehicle(applicant.request, {
    brand: 'Lancia',
    model: 'Delta Integrale',
    name: 'Roter Blitz',
  });
  await attachPhoto(applicant.request, vehicleId, await makeJpeg(PHOTOS, 'blitz.jpg', 7));
  await setVehicleStatus(page.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  const mail = await waitForMail(email, /Einladung/);
  const code = /dieser Code:\s+(\S+)/.exec(mail.text)?.[1];
  expect(code, 'check-in code in the mail').toBeTruthy();
  await setVehicleStatus(page.request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  const listed = async () =>
    ((await (await page.request.get('/api/vehicles/public')).json()) as Array<{ id: string }>).map(
      (car) => car.id,
    );
  expect(await listed()).toContain(vehicleId);

  try {
    await page.goto('/admin/ausgaben');
    await expect(page.getByRole('heading', { level: 1, name: 'Ausgaben' })).toBeVisible();
    const form = page.getByRole('form', { name: 'Nächste Ausgabe' });
    await expect(form.getByLabel('Jahr')).toHaveValue(String(next));
    await form.getByRole('button', { name: 'Ausgabe anlegen' }).click();
    const card = page.getByRole('article', { name: `Schlosstreffen ${next}` });
    await expect(card).toContainText('In Vorbereitung');
    await expect(card).toContainText(`.${next}`);

    // Its zones and periods are the last one's until changed.
    await card.getByRole('button', { name: 'Bearbeiten' }).click();
    const editForm = page.getByRole('form', { name: `Schlosstreffen ${next} bearbeiten` });
    await editForm.getByLabel('Parkzonen').fill('Nord 40');
    await editForm.getByRole('button', { name: 'Speichern' }).click();
    await expect(editForm.getByRole('alert')).toContainText(
      'Bitte gib die Parkzonen als „Name:Kapazität“ an',
    );
    await editForm.getByLabel('Parkzonen').fill('Nord:40, Süd:20');
    await editForm.getByLabel('Bestätigen binnen (Tage)').fill('10');
    await editForm.getByRole('button', { name: 'Speichern' }).click();
    await expect(card).toContainText('Nord: 40, Süd: 20');
    await expect(card).toContainText('Bestätigen binnen 10 Tagen');

    await card.getByRole('button', { name: 'Bewerbung öffnen' }).click();
    await expect(card).toContainText('Bewerbung offen');
    await card.getByRole('button', { name: 'Auf die Startseite' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Schlosstreffen ${next} auf die Startseite?` });
    await dialog.getByRole('button', { name: 'Auf die Startseite' }).click();
    await expect(card).toContainText('Auf der Startseite');
    await expect(page.getByRole('article', { name: `Schlosstreffen ${year}` })).toContainText('Archiviert');
    await captureEverywhere(page, 'admin-ausgaben');

    // Every process reads the editions again within seconds: no restart.
    await expect(async () => {
      await page.goto('/');
      await expect(page.locator('main')).toContainText(String(next), { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    expect(await listed()).not.toContain(vehicleId);

    // Last year's participant applies again with the car, photo included: taken over as a draft,
    // then submitted with the consents ticked anew.
    const owner = await applicant.newPage();
    await owner.goto('/dashboard');
    const last = owner.getByRole('article', { name: 'Roter Blitz' });
    await last.getByRole('button', { name: `Für Schlosstreffen ${next} bewerben` }).click();
    const takeOver = owner.getByRole('alertdialog', { name: `Für Schlosstreffen ${next} bewerben` });
    await expect(takeOver).toContainText('Beim Einreichen stimmen Sie den Einwilligungen');
    await takeOver.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(owner.getByRole('article', { name: 'Roter Blitz' })).toHaveCount(2);
    const fresh = owner.getByRole('article', { name: 'Roter Blitz' }).filter({ hasText: 'Entwurf' });
    await submitFromDashboard(owner, fresh);
    await expect(
      owner.getByRole('article', { name: 'Roter Blitz' }).filter({ hasText: 'Eingereicht' }),
    ).toBeVisible();
    const mine = (await (await applicant.request.get('/api/vehicles')).json()) as Array<{
      id: string;
      edition: { year: number } | null;
      media: Array<{ thumbnailUrl: string | null }>;
    }>;
    const reapplied = mine.find((vehicle) => vehicle.edition?.year === next)!;
    // This year the car has a new name: what was recorded for last year stays as it was.
    const renamed = await applicant.request.patch(`/api/vehicles/${reapplied.id}`, {
      headers: { Origin: BASE_URL },
      data: { name: 'Blauer Blitz' },
    });
    expect(renamed.status(), await renamed.text()).toBe(200);
    // The photo came along: copied, cleaned and rendered by the worker.
    await expect
      .poll(
        async () => {
          const copy = (await (await applicant.request.get(`/api/vehicles/${reapplied.id}`)).json()) as {
            media: Array<{ thumbnailUrl: string | null }>;
          };
          return copy.media.filter((item) => item.thumbnailUrl).length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await captureEverywhere(owner, 'dashboard-reapplied');

    // The reviewer sees last year's participation and what changed.
    await page.goto('/admin/dashboard?q=Integrale');
    await page
      .getByRole('article')
      .filter({ hasText: 'Eingereicht' })
      .getByRole('button', { name: 'Blauer Blitz' })
      .click();
    const details = page.getByRole('dialog');
    await details.getByRole('tab', { name: 'Admin' }).click();
    const others = details.getByRole('list', { name: 'Bewerbungen in anderen Ausgaben' });
    await expect(others).toContainText(`Schlosstreffen ${year}: Lancia Delta Integrale`);
    await expect(others).toContainText('Bestätigt');
    await expect(details).toContainText(`Geändert seit Schlosstreffen ${year}`);
    await expect(details).toContainText('Fotos: 1 → 1 (1 übernommen)');
    await expect(details).toContainText('Roter Blitz → Blauer Blitz');
    await page.keyboard.press('Escape');

    // Invited in the new edition: start number 1 of it.
    await setVehicleStatus(page.request, reapplied.id, { status: 'invited', oldStatus: 'submitted' });
    await expect
      .poll(async () => (await adminVehicle(page.request, reapplied.id)).invitation?.startNumber, {
        timeout: 20_000,
      })
      .toBe(1);

    // Last year's code at this year's gate.
    await page.goto('/admin/check-in');
    await field(page, 'Check-in-Code oder Startnummer').fill(code!);
    await page.getByRole('button', { name: 'Einchecken' }).click();
    await expect(page.getByText(`Einladung gilt für Schlosstreffen ${year}`, { exact: true })).toBeVisible();

    // The landing page links to last year's look back, rendered on the server with the car as it was.
    await page.goto('/');
    await page.getByRole('link', { name: `Rückblick ${year}` }).click();
    await expect(page).toHaveURL(new RegExp(`/rueckblick/${year}$`));
    const cars = page.getByRole('list', { name: `Fahrzeuge ${year}` });
    await expect(cars).toContainText('Roter Blitz');
    await expect(cars).not.toContainText('Blauer Blitz');
    const rendered = await page.request.get(`/rueckblick/${year}`);
    expect(rendered.status()).toBe(200);
    expect(await rendered.text()).toContain('Roter Blitz');
    await captureEverywhere(page, 'look-back');

    // The earlier edition read back through the switch: its application, and a notice that it is not the current one.
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('combobox', { name: 'Ausgabe' }).click();
    await page.getByRole('option', { name: new RegExp(`Schlosstreffen ${year}`) }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Sie sehen Schlosstreffen ${year}` }),
    ).toBeVisible();
    await expect(page.getByText('Roter Blitz').first()).toBeVisible();
    await captureEverywhere(page, 'admin-dashboard-past-edition');

    // Last year's quartett, printed now: the car as it was recorded for that year.
    await page.goto('/admin/quartett');
    await field(page, 'Titel').fill(`Quartett ${year}`);
    await page.getByRole('button', { name: 'Export starten' }).click();
    const version = page.getByRole('listitem').filter({ hasText: `Quartett ${year}` });
    const download = version.getByRole('link', { name: /PDF herunterladen/ });
    await expect(download).toBeVisible({ timeout: 60_000 });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const printed = await pdfText(await readDownload(file));
    expect(printed).toContain('Roter Blitz');
    expect(printed).not.toContain('Blauer Blitz');
    await page.getByRole('combobox', { name: 'Ausgabe' }).click();
    await page.getByRole('option', { name: new RegExp(`Schlosstreffen ${next}`) }).click();
  } finally {
    await applicant.close();
    // The specs after this one run on this run's meeting.
    const back = await page.request.post(`/api/admin/editions/${year}/current`, {
      headers: { Origin: BASE_URL },
      data: {},
    });
    expect(back.status(), await back.text()).toBe(200);
    await page.waitForTimeout(6_000);
  }
});

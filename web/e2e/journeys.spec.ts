import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import {
  BASE_URL,
  captureEverywhere,
  field,
  linkIn,
  makeJpeg,
  PASSWORD,
  confirmationLink,
  registerViaApi,
  submitFromDashboard,
  SUBMISSION_CONSENTS,
  uniqueEmail,
  untilLive,
  waitForMail,
} from './support';

/** The main journeys of applicants and visitors against the built app and its real services. */

async function registerInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/register');
  await untilLive(page);
  await field(page, 'Vorname').fill('Jana');
  await field(page, 'Nachname').fill('Krause');
  await field(page, 'Email').fill(email);
  await field(page, 'Instagram Name').fill('@jana.tuning');
  await field(page, 'Passwort').fill(PASSWORD);
  await field(page, 'Passwort bestätigen').fill(PASSWORD);
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Registrierung erfolgreich')).toBeVisible();
  // Nothing is submitted until the address is confirmed: the dashboard says so.
  await expect(page.getByTestId('email-confirm-notice')).toContainText(email);
  await page.goto(await confirmationLink(email));
  await page.getByRole('button', { name: 'E-Mail-Adresse bestätigen' }).click();
  await expect(page.getByText('Deine E-Mail-Adresse ist bestätigt.')).toBeVisible();
  await page.getByRole('link', { name: 'Zu meinen Fahrzeugen' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('email-confirm-notice')).toHaveCount(0);
}

test('register, apply with three photos, see the submitted card with its thumbnail', async ({ page }) => {
  const email = uniqueEmail('bewerbung');
  await registerInBrowser(page, email);
  await expect(page.getByText('Noch keine Fahrzeuge')).toBeVisible();

  await page.goto('/apply');
  await expect(page.getByRole('heading', { name: 'Fahrzeug anmelden' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Zurück' })).toBeDisabled();

  // Step 1 is gated by validation: an empty brand keeps the wizard on step 1.
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(page.getByText('Marke ist erforderlich')).toBeVisible();
  await field(page, 'Marke').fill('Volkswagen');
  await field(page, 'Modell').fill('Golf II GTI 16V');
  await field(page, 'Name auf der Karte').fill('Grüner Blitz');
  await field(page, 'Farbe').fill('Helios-Blau');
  await page.getByRole('button', { name: 'Weiter' }).click();

  // Step 2: the create defaults are filled in.
  await expect(field(page, 'Leistung (PS)')).toHaveValue('150');
  await field(page, 'Leistung (PS)').fill('185');
  await page.getByRole('button', { name: 'Weiter' }).click();

  // Step 3: three real JPEG photos through Uppy, straight to S3.
  const dir = path.join(os.tmpdir(), 'schlosstreffen-e2e');
  const files = await Promise.all([1, 2, 3].map((n) => makeJpeg(dir, `golf-${n}.jpg`, n)));
  await page.locator('input[type="file"]').setInputFiles(files);
  await expect(page.getByRole('figure', { name: /golf-3\.jpg/ })).toBeVisible({ timeout: 30_000 });
  await expect(
    page
      .getByRole('figure', { name: /golf-1\.jpg/ })
      .getByText('Hauptbild')
      .first(),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Weiter' }).click();

  // Step 4: all three consents are required.
  await page.getByRole('button', { name: 'Bewerbung einreichen' }).click();
  await expect(page.getByText('Einwilligung zur Mediennutzung ist erforderlich')).toBeVisible();
  for (const consent of ['Bilder meines Fahrzeugs', 'im Auto-Quartett', 'kontaktieren darf']) {
    await page.getByText(consent).click();
  }
  await page.getByRole('button', { name: 'Bewerbung einreichen' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Bewerbung eingereicht!')).toBeVisible();
  const card = page.getByRole('article').filter({ hasText: 'Grüner Blitz' });
  await expect(card.getByText('Eingereicht')).toBeVisible();
  await expect(card.getByText('185 PS')).toBeVisible();
  // The worker writes the WebP thumbnail; the card shows it once the list is reloaded.
  await expect(async () => {
    await page.reload();
    const src = await page
      .getByRole('article')
      .filter({ hasText: 'Grüner Blitz' })
      .locator('img')
      .first()
      .getAttribute('src');
    expect(src).toMatch(/\/objects\/thumbs\/.+\.webp/);
  }).toPass({ timeout: 30_000 });
  await captureEverywhere(page, 'dashboard-submitted');
});

test('withdraw, resubmit and delete a draft from the dashboard', async ({ page }) => {
  const email = uniqueEmail('dashboard');
  await registerViaApi(page.request, { email, firstName: 'Tim', lastName: 'Lorenz' });
  const created = await page.request.post('/api/vehicles', {
    headers: { Origin: BASE_URL },
    data: {
      brand: 'Mazda',
      model: 'MX-5 NA',
      year: 1991,
      ps: 131,
      weightKg: 980,
      topSpeedKmh: 200,
      zeroToHundredS: 8.3,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    },
  });
  expect(created.status()).toBe(201);

  await page.goto('/dashboard');
  const card = page.getByRole('article').filter({ hasText: 'Mazda MX-5 NA' });
  await expect(card.getByText('Eingereicht')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Löschen' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Zurückziehen' }).click();
  const withdraw = page.getByRole('alertdialog', { name: 'Bewerbung zurückziehen?' });
  await expect(withdraw).toBeVisible();
  await withdraw.getByRole('button', { name: 'Zurückziehen' }).click();
  await expect(page.getByText('Bewerbung zurückgezogen')).toBeVisible();
  await expect(card.getByText('Entwurf')).toBeVisible();

  // 'Einreichen' asks for the three consents first: pressed without a tick, it names each one missing.
  await card.getByRole('button', { name: 'Einreichen' }).click();
  const consents = page.getByRole('alertdialog', { name: 'Bewerbung einreichen?' });
  await consents.getByRole('button', { name: 'Einreichen' }).click();
  await expect(consents.getByText('Einwilligung zur Mediennutzung ist erforderlich')).toBeVisible();
  await expect(consents.getByText('Einwilligung zur Kontaktaufnahme ist erforderlich')).toBeVisible();
  await captureEverywhere(page, 'dashboard-submit-consents');
  await consents.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(consents).toHaveCount(0);
  await expect(card.getByText('Entwurf')).toBeVisible();

  await submitFromDashboard(page, card);
  await expect(page.getByText('Bewerbung eingereicht', { exact: true })).toBeVisible();
  await expect(card.getByText('Eingereicht')).toBeVisible();

  await card.getByRole('button', { name: 'Zurückziehen' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Zurückziehen' }).click();
  await expect(card.getByText('Entwurf')).toBeVisible();
  await card.getByRole('button', { name: 'Löschen' }).click();
  const remove = page.getByRole('alertdialog', { name: 'Fahrzeug löschen?' });
  await remove.getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Fahrzeug gelöscht')).toBeVisible();
  await expect(page.getByText('Noch keine Fahrzeuge')).toBeVisible();
});

test('forgot and reset the password through the link in the mail', async ({ page }) => {
  const email = uniqueEmail('reset');
  await registerViaApi(page.request, { email, firstName: 'Uwe', lastName: 'Brandt' });
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The URL changes before the page does: filling earlier could reach the login form's Email field.
  await expect(page.getByRole('heading', { level: 1, name: 'Passwort vergessen?' })).toBeVisible();
  await untilLive(page);
  await field(page, 'Email').fill(email);
  await page.getByRole('button', { name: 'Reset-Link senden' }).click();
  await expect(page.getByText('E-Mail versendet!')).toBeVisible();

  const mail = await waitForMail(email, /Passwort/);
  const link = linkIn(mail, `${BASE_URL}/reset-password`);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Neues Passwort setzen' })).toBeVisible();
  await expect(page.getByText(`Für: ${email}`)).toBeVisible();
  await captureEverywhere(page, 'reset-password');
  const newPassword = 'ganzNeuesPasswort9';
  await field(page, 'Neues Passwort').fill(newPassword);
  await field(page, 'Passwort bestätigen').fill(newPassword);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await expect(page.getByText('Passwort erfolgreich zurückgesetzt')).toBeVisible();
  await expect(page).toHaveURL(/\/login/, { timeout: 5000 });

  await field(page, 'Email').fill(email);
  await field(page, 'Passwort').fill(newPassword);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Login erfolgreich')).toBeVisible();

  // The link is used up: opening it again shows the invalid-link view.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Ungültiger Link' })).toBeVisible();
});

test('a visitor pre-registers and can register another person', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Als Besucher vormerken' }).first().click();
  await expect(page).toHaveURL(/\/visitor-registration$/);
  await page.getByRole('button', { name: 'Jetzt vormerken' }).click();
  await expect(page.getByText('Vorname muss mindestens 2 Zeichen lang sein')).toBeVisible();

  const email = uniqueEmail('besuch');
  await field(page, 'Vorname').fill('Greta');
  await field(page, 'Nachname').fill('Vogel');
  await field(page, 'E-Mail').fill(email);
  await field(page, 'Telefon').fill('+49 351 1234567');
  await page.getByRole('button', { name: 'Jetzt vormerken' }).click();
  await expect(page.getByRole('heading', { name: 'Vielen Dank!' })).toBeVisible();
  await expect(page.getByText('Erfolgreich vorgemerkt!')).toBeVisible();
  await captureEverywhere(page, 'visitor-registration-thanks');

  // The address is not confirmed yet: the mail names nobody.
  const mail = await waitForMail(email, /.*/);
  expect(mail.text).toContain('Hallo,');
  expect(mail.text).not.toContain('Greta');

  await page.getByRole('button', { name: 'Weitere Person vormerken' }).click();
  await expect(field(page, 'Vorname')).toHaveValue('');
});

import { expect, test } from '@playwright/test';
import { BASE_URL, captureEverywhere, registerViaApi, SUBMISSION_CONSENTS, uniqueEmail } from './support';

/** Every public, signed-in and admin screen at phone and desktop size: axe clean, screenshot saved. */

test('public pages', async ({ page }) => {
  const pages: Array<[name: string, path: string, heading: RegExp | string]> = [
    ['landing', '/', /Schlosstreffen/],
    ['register', '/register', /Registrier|Konto/],
    ['login', '/login', /Anmelden|Login/],
    ['forgot-password', '/forgot-password', /Passwort/],
    ['reset-password-invalid', '/reset-password?token=ungueltig', 'Ungültiger Link'],
    ['visitor-registration', '/visitor-registration', 'Besuchervoranmeldung'],
    ['visitor-unsubscribe', '/besucher/abmelden?token=x', 'Von Event-Updates abmelden'],
    ['email-confirm', '/email-bestaetigen?token=x', /E-Mail-Adresse/],
    ['email-change-cancel', '/email-aenderung-abbrechen?token=x', 'E-Mail-Änderung abbrechen'],
  ];
  for (const [name, path, heading] of pages) {
    await test.step(name, async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
      await captureEverywhere(page, name);
    });
  }
});

test('signed-in pages', async ({ page }) => {
  const email = uniqueEmail('seiten');
  await registerViaApi(page.request, { email, firstName: 'Paula', lastName: 'Seitz' });
  const created = await page.request.post('/api/vehicles', {
    headers: { Origin: BASE_URL },
    data: {
      brand: 'Porsche',
      model: '911 Carrera',
      name: 'Weiße Wölfin',
      year: 1989,
      color: 'Weiß',
      ps: 231,
      torqueNm: 284,
      weightKg: 1210,
      topSpeedKmh: 260,
      zeroToHundredS: 5.7,
      cylinders: 6,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const pages: Array<[name: string, path: string, heading: RegExp | string]> = [
    ['dashboard', '/dashboard', 'Meine Fahrzeuge'],
    ['apply', '/apply', /Fahrzeug anmelden/],
    ['edit', `/edit/${id}`, /bearbeiten|Weiße Wölfin|Porsche/],
    ['profile', '/profile', 'Mein Profil'],
  ];
  for (const [name, path, heading] of pages) {
    await test.step(name, async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
      await captureEverywhere(page, name);
    });
  }
});

test('an account whose address is not confirmed yet', async ({ page }) => {
  const email = uniqueEmail('unbestaetigt');
  await registerViaApi(page.request, { email, firstName: 'Uta', lastName: 'Offen' }, { confirm: false });
  for (const [name, path, heading] of [
    ['dashboard-unconfirmed', '/dashboard', 'Meine Fahrzeuge'],
    ['apply-unconfirmed', '/apply', /Fahrzeug anmelden/],
  ] as const) {
    await test.step(name, async () => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
      await expect(page.getByTestId('email-confirm-notice')).toContainText(email);
      await captureEverywhere(page, name);
    });
  }
});

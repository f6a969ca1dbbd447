import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  applicantWithVehicle,
  captureEverywhere,
  field,
  linkIn,
  PASSWORD,
  sql,
  uniqueEmail,
  untilLive,
  waitForMail,
} from './support';

/** Personal data in the browser: mailed visitor links, the privacy pages, export and deletion. */

test('a visitor confirms and unsubscribes with the buttons behind the mail links', async ({ page }) => {
  const email = uniqueEmail('vormerkung');
  const signUp = await page.request.post('/api/visitor-registrations', {
    headers: { Origin: 'http://localhost:3100' },
    data: { firstName: 'Vera', lastName: 'Vormerk', email },
  });
  expect(signUp.status()).toBe(201);
  const mail = await waitForMail(email, /Vormerkung/);
  expect(mail.html).toContain('/datenschutz');

  // Opening the link changes nothing by itself (a mail scanner may open it too).
  await page.goto(linkIn(mail, 'http://localhost:3100/besucher/bestaetigen?token='));
  await expect(page.getByRole('heading', { name: 'Vormerkung bestätigen' })).toBeVisible();
  await captureEverywhere(page, 'visitor-confirm-link');
  await page.getByRole('button', { name: 'Vormerkung bestätigen' }).click();
  await expect(page.getByText('Deine Vormerkung ist bestätigt.', { exact: false })).toBeVisible();

  // Anyone may sign the address up again: the tick for the next meeting only mails a link to it, and
  // the consent is added when that link's button is pressed. The mail names nobody.
  const again = await page.request.post('/api/visitor-registrations', {
    headers: { Origin: 'http://localhost:3100' },
    data: { firstName: 'Mallory bitte hier klicken', lastName: 'Fremd', email, nextEdition: true },
  });
  expect(again.status()).toBe(201);
  const consentMail = await waitForMail(email, /nächste Schlosstreffen/);
  expect(consentMail.html).not.toContain('Mallory');
  expect(consentMail.text).not.toContain('Mallory');
  await page.goto(linkIn(consentMail, 'http://localhost:3100/besucher/naechstes-treffen?token='));
  await expect(page.getByRole('heading', { name: 'Über das nächste Treffen informieren' })).toBeVisible();
  await captureEverywhere(page, 'visitor-next-edition-link');
  await page.getByRole('button', { name: 'Einwilligen' }).click();
  await expect(page.getByRole('button', { name: 'Einwilligen' })).toHaveCount(0);
  const [registration] = await sql<{ next_edition_consent_at: Date | null }>(
    `select next_edition_consent_at from visitor_registration where email = '${email}'`,
  );
  expect(registration?.next_edition_consent_at).not.toBeNull();

  await page.goto(linkIn(mail, 'http://localhost:3100/besucher/abmelden?token='));
  await expect(page.getByRole('heading', { name: 'Von Event-Updates abmelden' })).toBeVisible();
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page.getByText('Du bist abgemeldet', { exact: false })).toBeVisible();
  await captureEverywhere(page, 'visitor-unsubscribed');
});

test('the privacy notice and imprint are linked from the footer and the forms', async ({ page }) => {
  // The forms link it in a new tab, so nothing typed is lost.
  for (const form of ['/visitor-registration', '/register']) {
    await page.goto(form);
    const link = page
      .getByRole('main')
      .getByRole('link', { name: /Datenschutz/ })
      .first();
    await expect(link).toHaveAttribute('href', '/datenschutz');
    await expect(link).toHaveAttribute('target', '_blank');
  }
  // Reaching for the page loads the app; its links are followed once it is live (a press made before is
  // handed over, which server-rendering.spec.ts checks).
  await page.goto('/');
  await page.keyboard.press('Shift');
  await untilLive(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Datenschutz' }).click();
  await expect(page).toHaveURL(/\/datenschutz$/);
  await expect(page.getByRole('heading', { name: 'Datenschutzerklärung', level: 1 })).toBeVisible();
  await captureEverywhere(page, 'datenschutz');
  await page.goto('/');
  await page.keyboard.press('Shift');
  await untilLive(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Impressum' }).click();
  await expect(page).toHaveURL(/\/impressum$/);
  await expect(page.getByRole('heading', { name: 'Impressum', level: 1 })).toBeVisible();
  await captureEverywhere(page, 'impressum');
});

test('an applicant downloads their data, withdraws a consent and deletes the account', async ({ page }) => {
  const { email } = await applicantWithVehicle(page.request, {
    brand: 'Audi',
    model: 'Quattro',
    name: 'Datenwagen',
  });
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Mein Profil' }).first().click();
  await expect(page).toHaveURL(/\/profile$/);

  // The export: started, built by the worker, downloaded as a ZIP.
  await page.getByRole('button', { name: 'Meine Daten herunterladen' }).click();
  const link = page.getByRole('link', { name: 'ZIP herunterladen' });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^schlosstreffen-meine-daten-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = await readFile((await download.path())!);
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(zip.includes(Buffer.from(email))).toBe(true);

  // A consent withdrawn, after the dialog has said what follows.
  const consents = page.getByRole('region', { name: 'Einwilligungen' });
  await consents.getByRole('button', { name: 'Widerrufen' }).first().click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog).toBeVisible();
  await captureEverywhere(page, 'profile-consent-withdraw');
  await dialog.getByRole('button', { name: 'Widerrufen' }).click();
  await expect(page.getByText('Einwilligung widerrufen').first()).toBeVisible();
  await expect(consents.getByText(/Widerrufen am/).first()).toBeVisible();

  // Deleting: a wrong password is refused on the field; the right one ends everything.
  await field(page, 'Passwort zur Bestätigung').fill('falsches-passwort');
  await page.getByRole('button', { name: 'Konto endgültig löschen' }).click();
  await page.getByRole('button', { name: 'Ja, endgültig löschen' }).click();
  await expect(page.getByText('Das Passwort ist falsch.').first()).toBeVisible();
  await field(page, 'Passwort zur Bestätigung').fill(PASSWORD);
  await page.getByRole('button', { name: 'Konto endgültig löschen' }).click();
  await page.getByRole('button', { name: 'Ja, endgültig löschen' }).click();
  await expect(page).toHaveURL('http://localhost:3100/');
  await expect(page.getByText('Dein Konto und alle zugehörigen Daten wurden gelöscht.')).toBeVisible();
  const login = await page.request.post('/api/auth/login', {
    headers: { Origin: 'http://localhost:3100' },
    data: { email, password: PASSWORD },
  });
  expect(login.status()).toBe(401);
});

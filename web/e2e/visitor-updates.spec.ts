import { expect, test } from '@playwright/test';
import { BASE_URL, captureEverywhere, linkIn, signInAsStaff, uniqueEmail, waitForMail } from './support';

/** Besucher-Updates in the built app: the worker renders the preview, mails the test and the update. */
test('an admin writes an update, sees the real preview, tests it and sends it to the confirmed visitors', async ({
  page,
  browser,
}) => {
  // A visitor who confirmed, through the mailed link.
  const visitorEmail = uniqueEmail('besuch');
  const visitor = await browser.newContext({ baseURL: BASE_URL });
  const signUp = await visitor.request.post('/api/visitor-registrations', {
    headers: { Origin: BASE_URL },
    data: { firstName: 'Vera', lastName: 'Besuch', email: visitorEmail },
  });
  expect(signUp.status()).toBe(201);
  const confirmation = await waitForMail(visitorEmail, /Vormerkung/);
  const token = new URL(linkIn(confirmation, `${BASE_URL}/besucher/bestaetigen`)).searchParams.get('token');
  const confirmed = await visitor.request.post('/api/visitor-registrations/confirm', {
    headers: { Origin: BASE_URL },
    data: { token },
  });
  expect(confirmed.status()).toBe(200);
  await visitor.close();

  const adminEmail = await signInAsStaff(page, 'admin', 'Anna');

  await page.goto('/admin/besucher-updates');
  await expect(page.getByRole('heading', { level: 1, name: 'Besucher-Updates' })).toBeVisible();
  await page.getByLabel('Betreff').fill('Der Zeitplan steht');
  await page
    .getByLabel('Nachricht')
    .fill('Am Samstag öffnen wir die Tore um 10 Uhr.\n\nBesucherparkplätze gibt es am Nordtor.');
  await page.getByRole('button', { name: 'Entwurf speichern' }).click();

  // The worker renders the preview with the mail template.
  const preview = page.frameLocator('iframe[title="Vorschau der E-Mail"]');
  await expect(preview.getByText('Hallo Max,')).toBeVisible({ timeout: 15_000 });
  await expect(preview.getByText('Besucherparkplätze gibt es am Nordtor.')).toBeVisible();
  await captureEverywhere(page, 'admin-visitor-updates-draft');
  await page
    .locator('iframe[title="Vorschau der E-Mail"]')
    .screenshot({ path: 'test-results/screenshots/admin-visitor-updates-preview-frame.png' });

  await page.getByRole('button', { name: 'Test an mich senden' }).click();
  const testMail = await waitForMail(adminEmail, /Der Zeitplan steht – Schlosstreffen/);
  expect(testMail.text).toContain('Testversand');

  await page.getByRole('button', { name: 'An alle senden' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Update an alle senden?' });
  await expect(dialog).toContainText('Besucher');
  await dialog.getByRole('button', { name: 'Jetzt senden' }).click();
  await expect(page.getByText('Versand abgeschlossen')).toBeVisible({ timeout: 20_000 });
  const history = page.getByRole('list', { name: 'Bisherige Updates' });
  await expect(history).toContainText('Gesendet');
  await captureEverywhere(page, 'admin-visitor-updates-sent');

  const received = (await waitForMail(visitorEmail, /Der Zeitplan steht – Schlosstreffen/)) as Awaited<
    ReturnType<typeof waitForMail>
  > & { headers?: Record<string, string> };
  expect(received.text).toContain('Hallo Vera,');
  expect(received.text).toContain('Hier abmelden');
  expect(received.headers?.['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
});

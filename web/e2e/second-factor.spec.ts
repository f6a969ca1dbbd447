import { expect, test, type Page } from '@playwright/test';
import {
  BASE_URL,
  captureEverywhere,
  field,
  readDownload,
  registerViaApi,
  setRole,
  signInAsStaff,
  totpCode,
  uniqueEmail,
  untilLive,
  PASSWORD,
} from './support';

/**
 * The staff's second factor in the built app (started with STAFF_SECOND_FACTOR on): an admin's
 * first sign-in sets it up from the key on screen, a code of that key signs in, a recovery code
 * works once; until the second factor is done, no admin API answers 200. Then the Team page.
 */

/** What a session whose second factor is outstanding gets from staff routes: never a 200. */
async function adminAnswers(page: Page): Promise<number[]> {
  const paths = [
    '/api/admin/vehicles',
    '/api/admin/team',
    '/api/admin/visitors',
    '/api/admin/check-in/list',
    '/admin/queues/api/queues',
    '/api/auth/user',
  ];
  return Promise.all(paths.map(async (path) => (await page.request.get(path)).status()));
}

async function passwordStep(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await untilLive(page);
  await field(page, 'Email').fill(email);
  await field(page, 'Passwort').fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
}

/** The screen at both sizes, from the top (a full-page picture keeps the sticky header where it was scrolled to). */
async function captureAtTop(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await captureEverywhere(page, name);
}

async function signOut(page: Page): Promise<void> {
  const res = await page.request.post('/api/auth/logout', { headers: { Origin: BASE_URL }, data: {} });
  expect(res.status()).toBe(200);
}

test("an admin's first sign-in sets the second factor up; a code of the shown key and a recovery code (once) sign in", async ({
  page,
  request,
}) => {
  const email = uniqueEmail('zweifaktor');
  await registerViaApi(request, { email, firstName: 'Zora', lastName: 'Zweifaktor' });
  await setRole(email, 'admin');

  // The password alone: the setup screen, and no admin API answers 200.
  await passwordStep(page, email);
  await expect(page.getByRole('heading', { name: 'Zweiten Faktor einrichten' })).toBeVisible();
  const qr = page.getByRole('img', { name: `QR-Code mit dem Schlüssel für ${email}` });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  expect((await adminAnswers(page)).filter((status) => status === 200)).toEqual([]);
  expect((await page.request.get('/admin/queues', { maxRedirects: 0 })).status()).toBe(302);
  await captureAtTop(page, 'second-factor-setup');

  // The key as the screen shows it (grouped), typed into an app: its code.
  const keyText = (await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4}){3,}$/).textContent())!.trim();
  const code = field(page, 'Code aus der App');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await code.fill('123');
  await page.getByRole('button', { name: 'Einrichten und anmelden' }).click();
  await expect(
    page.getByText('Bitte gib den 6-stelligen Code aus deiner Authenticator-App ein.'),
  ).toBeVisible();
  await code.fill(totpCode(keyText));
  await page.getByRole('button', { name: 'Einrichten und anmelden' }).click();

  // The recovery codes, once: download, confirm, continue.
  await expect(page.getByRole('heading', { name: 'Wiederherstellungscodes' })).toBeVisible();
  const codes = await page
    .getByRole('list', { name: 'Wiederherstellungscodes' })
    .getByRole('listitem')
    .allTextContents();
  expect(codes).toHaveLength(10);
  for (const recovery of codes) expect(recovery).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Herunterladen' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe('schlosstreffen-wiederherstellungscodes.txt');
  const text = (await readDownload(file)).toString('utf8');
  for (const recovery of codes) expect(text).toContain(recovery);
  const next = page.getByRole('button', { name: 'Weiter' });
  await expect(next).toBeDisabled();
  await captureAtTop(page, 'second-factor-recovery-codes');
  await page.getByText('Ich habe die Wiederherstellungscodes sicher aufbewahrt').click();
  await next.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Login erfolgreich')).toBeVisible();
  expect((await page.request.get('/api/admin/vehicles')).status()).toBe(200);
  expect((await page.request.get('/admin/queues/api/queues')).status()).toBe(200);

  // Next sign-in: the code screen; a recovery code signs in instead of the app.
  await signOut(page);
  await passwordStep(page, email);
  await expect(page.getByRole('heading', { name: 'Anmeldung bestätigen' })).toBeVisible();
  await expect(field(page, 'Code aus der App')).toHaveAttribute('autocomplete', 'one-time-code');
  expect((await adminAnswers(page)).filter((status) => status === 200)).toEqual([]);
  await captureAtTop(page, 'second-factor-code');
  await page.getByRole('button', { name: 'Wiederherstellungscode verwenden' }).click();
  await field(page, 'Wiederherstellungscode').fill(codes[0]!.toLowerCase());
  await page.getByRole('button', { name: 'Mit Wiederherstellungscode anmelden' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('noch 9 Codes übrig')).toBeVisible();
  expect((await page.request.get('/api/admin/vehicles')).status()).toBe(200);

  // The same recovery code a second time: refused on its field, still no admin answer.
  await signOut(page);
  await passwordStep(page, email);
  await page.getByRole('button', { name: 'Wiederherstellungscode verwenden' }).click();
  await field(page, 'Wiederherstellungscode').fill(codes[0]!);
  await page.getByRole('button', { name: 'Mit Wiederherstellungscode anmelden' }).click();
  await expect(
    page.getByText('Der Wiederherstellungscode ist ungültig oder wurde schon verwendet.'),
  ).toBeVisible();
  await expect(field(page, 'Wiederherstellungscode')).toHaveAttribute('aria-invalid', 'true');
  expect((await adminAnswers(page)).filter((status) => status === 200)).toEqual([]);

  // A code of the app signs in (the next time step's: the setup took the current one).
  await page.getByRole('button', { name: 'Code aus der App verwenden' }).click();
  await field(page, 'Code aus der App').fill(totpCode(keyText, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await page.request.get('/api/admin/team')).status()).toBe(200);
});

test('the Team page: an admin gives a confirmed account a role, resets a second factor and takes the role away', async ({
  page,
  browser,
}) => {
  const other = await browser.newContext({ baseURL: BASE_URL });
  const reviewerEmail = uniqueEmail('pruefer');
  await registerViaApi(other.request, { email: reviewerEmail, firstName: 'Paul', lastName: 'Prüfer' });
  const unconfirmed = uniqueEmail('offen');
  await registerViaApi(
    other.request,
    { email: unconfirmed, firstName: 'Olga', lastName: 'Offen' },
    { confirm: false },
  );
  await other.close();

  await signInAsStaff(page, 'admin', 'Anna');
  await page.goto('/admin/dashboard');
  await page.getByRole('navigation', { name: 'Adminbereich' }).getByRole('link', { name: 'Team' }).click();
  await expect(page).toHaveURL(/\/admin\/team$/);
  await expect(page.getByRole('heading', { name: 'Team', exact: true })).toBeVisible();

  const grant = page.getByRole('form', { name: 'Rolle vergeben' });
  await grant.getByLabel(/^E-Mail-Adresse des Kontos/).fill(unconfirmed);
  await grant.getByRole('radio', { name: /^Admin/ }).check();
  await grant.getByRole('button', { name: 'Rolle vergeben' }).click();
  await expect(grant.getByText(/Diese E-Mail-Adresse ist noch nicht bestätigt\./)).toBeVisible();

  await grant.getByLabel(/^E-Mail-Adresse des Kontos/).fill(reviewerEmail);
  await grant.getByRole('radio', { name: /^Prüfer/ }).check();
  await grant.getByRole('button', { name: 'Rolle vergeben' }).click();
  await expect(page.getByText('Paul Prüfer ist jetzt Prüfer.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Teammitglieder' });
  const row = table.getByRole('row').filter({ hasText: reviewerEmail });
  await expect(row).toContainText('Nicht eingerichtet');
  // The own admin role cannot be taken here.
  const own = table.getByRole('row').filter({ hasText: '(Ihr Konto)' });
  await expect(own.getByRole('button', { name: /^Rolle entziehen/ })).toHaveCount(0);
  await expect(own).toContainText(/Seit \d{2}\.\d{2}\.\d{4}/);
  await captureAtTop(page, 'admin-team');

  // The reviewer sets up a second factor; the admin resets it (a lost phone).
  const reviewer = await browser.newContext({ baseURL: BASE_URL });
  const login = await reviewer.request.post('/api/auth/login', {
    headers: { Origin: BASE_URL },
    data: { email: reviewerEmail, password: PASSWORD },
  });
  expect(await login.json()).toMatchObject({ secondFactor: 'setup' });
  const setup = await reviewer.request.get('/api/auth/second-factor/setup');
  const { key } = (await setup.json()) as { key: string };
  const done = await reviewer.request.post('/api/auth/second-factor/setup', {
    headers: { Origin: BASE_URL },
    data: { code: totpCode(key) },
  });
  expect(done.status()).toBe(200);
  expect((await reviewer.request.get('/api/admin/vehicles')).status()).toBe(200);

  await page.reload();
  await expect(row).toContainText(/Seit \d{2}\.\d{2}\.\d{4}/);
  await row.getByRole('button', { name: 'Zweiten Faktor zurücksetzen: Paul Prüfer' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText(/Paul Prüfer wird abgemeldet/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Zurücksetzen' }).click();
  await expect(page.getByText(/Der zweite Faktor von Paul Prüfer ist zurückgesetzt\./)).toBeVisible();
  await expect(row).toContainText('Nicht eingerichtet');
  expect((await reviewer.request.get('/api/admin/vehicles')).status()).toBe(401);

  await row.getByRole('button', { name: 'Rolle entziehen: Paul Prüfer' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Rolle entziehen' }).click();
  await expect(page.getByText('Paul Prüfer gehört nicht mehr zum Team.')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: reviewerEmail })).toHaveCount(0);
  await reviewer.close();
});

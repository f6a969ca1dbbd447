import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { mailboxOf } from '@schlosstreffen/shared';
import type { AwardAdminView, AwardMe } from '@schlosstreffen/shared/api';
import {
  adminVehicle,
  applicantWithVehicle,
  BASE_URL,
  linkIn,
  pdfText,
  setVehicleStatus,
  signInAsStaff,
  sql,
  uniqueEmail,
  waitForMail,
} from './support';

/**
 * The vote on a car's page in the built app, end to end: a visitor gives the address, confirms it by
 * the mailed link, votes for up to three cars from their pages, takes one back, and after closing the
 * certificate names the winner and deleting the address leaves the final totals. (The page's server
 * rendering with its Open Graph tags and preview image: car-page.spec.ts.)
 */

const SHOTS = process.env.AWARD_SHOTS ?? '/tmp/shots';
const CAR_NAMES = ['Ascona', 'Bianca', 'Corrado', 'Diablo'] as const;

/** A confirmed car named `name` with its start number. */
async function confirmedCar(admin: Page, owner: APIRequestContext, name: string): Promise<number> {
  const { vehicleId } = await applicantWithVehicle(owner, { brand: 'Opel', model: 'Kadett', name });
  await setVehicleStatus(admin.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  await expect
    .poll(async () => (await adminVehicle(admin.request, vehicleId)).invitation?.startNumber, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await setVehicleStatus(admin.request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  return (await adminVehicle(admin.request, vehicleId)).invitation!.startNumber;
}

async function ranking(admin: Page, year: number): Promise<AwardAdminView> {
  const res = await admin.request.get(`/api/admin/award/${year}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as AwardAdminView;
}

/** The counted votes of the cars in the admin's ranking, in the given order (none listed: 0). */
async function votesFor(admin: Page, year: number, cars: number[]): Promise<number[]> {
  const view = await ranking(admin, year);
  return cars.map((car) => view.ranking.find((row) => row.startNumber === car)?.votes ?? 0);
}

/** The voting box of a car's page at 1440 and 390 px, saved under SHOTS. */
async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(300);
    await page.getByRole('region', { name: /Publikumsliebling/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `award-vote-${name}-${width}.png`) });
  }
}

let year = 0;

test.afterAll(async () => {
  // The edition's voting starts over for the other specs of the run (its award, voters and votes).
  if (!year) return;
  const edition = `(SELECT id FROM edition WHERE year = ${year})`;
  for (const table of ['award_vote', 'award_voter', 'award'])
    await sql(`DELETE FROM ${table} WHERE edition_id = ${edition}`);
});

test('a visitor votes on the cars’ pages: address, mailed link, three cars at most, take-back, certificate and deletion after closing', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signInAsStaff(page, 'admin', 'Vera');
  const owners = await Promise.all(CAR_NAMES.map(() => browser.newContext({ baseURL: BASE_URL })));
  const cars: number[] = [];
  for (const [index, name] of CAR_NAMES.entries())
    cars.push(await confirmedCar(page, owners[index]!.request, name));
  const [a, b, c, d] = cars as [number, number, number, number];
  const editions = (await (await page.request.get('/api/admin/editions')).json()) as {
    editions: { year: number; current: boolean }[];
  };
  year = editions.editions.find((edition) => edition.current)!.year;

  const visitor = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1440, height: 900 } });
  const tab = await visitor.newPage();
  const box = tab.getByRole('region', { name: `Publikumsliebling ${year}` });
  await tab.goto(`/fahrzeuge/${year}/${a}`);
  await expect(box).toContainText('Die Abstimmung hat noch nicht begonnen.');

  const opened = await page.request.post(`/api/admin/award/${year}/open`, { headers: { Origin: BASE_URL } });
  expect(opened.status(), await opened.text()).toBe(200);

  // The kept page follows the opening (within about a second); the visitor asks for nothing of its own.
  const askedMe: string[] = [];
  tab.on('request', (request) => {
    if (request.url().includes(`/api/award/${year}/me`)) askedMe.push(request.url());
  });
  await expect(async () => {
    await tab.reload();
    await expect(box.getByRole('button', { name: 'Für dieses Auto stimmen' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await shoot(tab, 'offen');
  expect(askedMe).toEqual([]);

  // A visitor without a confirmed address gives it; the mail names no car.
  await box.getByRole('button', { name: 'Für dieses Auto stimmen' }).click();
  const email = uniqueEmail('stimme');
  await box.getByLabel(/E-Mail-Adresse/).fill(email);
  await shoot(tab, 'adresse');
  await box.getByRole('button', { name: 'Für dieses Auto stimmen' }).click();
  await expect(box).toContainText('Wir haben dir eine E-Mail mit einem Bestätigungslink geschickt.');
  await expect(box.locator('[aria-live="polite"]')).toContainText('Fast geschafft!');
  expect(await votesFor(page, year, [a])).toEqual([0]);
  const mail = await waitForMail(email, /Publikumsliebling/);
  expect(mail.text).not.toContain(CAR_NAMES[0]);
  const confirmLink = linkIn(mail, `${BASE_URL}/publikumsliebling/bestaetigen?token=`);
  const votesLink = linkIn(mail, `${BASE_URL}/publikumsliebling/meine-stimmen?token=`);
  await tab.goto(confirmLink);
  await tab.getByRole('button', { name: 'Adresse bestätigen' }).click();
  await expect(tab.getByRole('status')).toContainText('Deine E-Mail-Adresse ist bestätigt');
  expect(await votesFor(page, year, [a])).toEqual([1]);

  // Confirmed: the vote on a page counts at once.
  await tab.goto(`/fahrzeuge/${year}/${a}`);
  await expect(box).toContainText('Deine Stimme für dieses Auto');
  await expect(box).toContainText('1 von 3 Stimmen vergeben');
  await shoot(tab, 'abgestimmt');
  for (const car of [b, c]) {
    await tab.goto(`/fahrzeuge/${year}/${car}`);
    await box.getByRole('button', { name: 'Für dieses Auto stimmen' }).click();
    await expect(box.locator('[aria-live="polite"]')).toHaveText('Danke! Deine Stimme zählt.');
    await expect(box).toContainText('Deine Stimme für dieses Auto');
  }
  await expect(box).toContainText('3 von 3 Stimmen vergeben');
  expect(await votesFor(page, year, cars)).toEqual([1, 1, 1, 0]);

  // A fourth car is refused until one is taken back.
  await tab.goto(`/fahrzeuge/${year}/${d}`);
  await box.getByRole('button', { name: 'Für dieses Auto stimmen' }).click();
  await expect(box.locator('[aria-live="polite"]')).toHaveText(
    'Du hast bereits drei Stimmen vergeben. Nimm eine zurück, um für dieses Auto zu stimmen.',
  );
  await shoot(tab, 'drei-vergeben');
  await tab.goto(`/fahrzeuge/${year}/${c}`);
  await box.getByRole('button', { name: 'Stimme zurücknehmen' }).click();
  await expect(box.locator('[aria-live="polite"]')).toHaveText('Deine Stimme ist zurückgenommen.');
  await expect(box).toContainText('2 von 3 Stimmen vergeben');
  await tab.goto(`/fahrzeuge/${year}/${d}`);
  await box.getByRole('button', { name: 'Für dieses Auto stimmen' }).click();
  await expect(box).toContainText('Deine Stimme für dieses Auto');
  expect(await votesFor(page, year, cars)).toEqual([1, 1, 0, 1]);

  // A second visitor (by the API) makes the first car the winner.
  const other = await browser.newContext({ baseURL: BASE_URL });
  const otherEmail = uniqueEmail('zweite-stimme');
  const pending = await other.request.post(`/api/award/${year}/votes`, {
    headers: { Origin: BASE_URL },
    data: { startNumber: a, email: otherEmail },
  });
  expect(pending.status(), await pending.text()).toBe(202);
  const otherMail = await waitForMail(otherEmail, /Publikumsliebling/);
  const otherToken = new URL(
    linkIn(otherMail, `${BASE_URL}/publikumsliebling/bestaetigen?token=`),
  ).searchParams.get('token');
  const confirmed = await other.request.post('/api/award/confirm', {
    headers: { Origin: BASE_URL },
    data: { token: otherToken },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  expect(await votesFor(page, year, [a])).toEqual([2]);

  // Closing: the page says so, the certificate of the first place names the winner.
  const closed = await page.request.post(`/api/admin/award/${year}/close`, { headers: { Origin: BASE_URL } });
  expect(closed.status(), await closed.text()).toBe(200);
  await expect(async () => {
    await tab.goto(`/fahrzeuge/${year}/${a}`);
    await expect(box).toContainText('Die Abstimmung ist beendet.', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await shoot(tab, 'beendet');
  let certificateUrl: string | null = null;
  await expect
    .poll(
      async () => {
        const winner = (await ranking(page, year)).ranking.find((row) => row.rank === 1);
        expect(winner?.startNumber).toBe(a);
        certificateUrl = winner?.certificateUrl ?? null;
        return certificateUrl;
      },
      { timeout: 60_000 },
    )
    .not.toBeNull();
  const pdf = await page.request.get(certificateUrl!);
  expect(pdf.status()).toBe(200);
  const text = await pdfText(await pdf.body());
  expect(text).toContain('Urkunde');
  expect(text).toContain(CAR_NAMES[0]);

  // Deleting the address after closing removes its votes; the final totals stay.
  const before = await ranking(page, year);
  await tab.goto(votesLink);
  await tab.getByRole('button', { name: 'Meine Stimmen löschen' }).click();
  await expect(tab.getByRole('status')).toContainText('Deine Stimmen und deine Adresse sind gelöscht.');
  const left = await sql<{ count: string }>(
    `SELECT count(*) FROM award_voter WHERE mailbox = '${mailboxOf(email).replace(/'/g, "''")}'`,
  );
  expect(Number(left[0]!.count)).toBe(0);
  const me = (await (await visitor.request.get(`/api/award/${year}/me`)).json()) as AwardMe;
  expect(me).toMatchObject({ state: 'closed', confirmed: false, votes: [] });
  const after = await ranking(page, year);
  expect(after.final).toBe(true);
  expect(after.ranking.map((row) => [row.startNumber, row.votes])).toEqual(
    before.ranking.map((row) => [row.startNumber, row.votes]),
  );
  expect(await votesFor(page, year, cars)).toEqual([2, 1, 0, 1]);
  for (const context of [...owners, visitor, other]) await context.close();
});

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  adminVehicle,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  linkIn,
  setVehicleStatus,
  signInAsStaff,
  uniqueEmail,
  waitForMail,
} from './support';

/** The visitors' award in the built app: the admin's screen, the mailed link's pages. */

/** A confirmed car with its start number. */
async function confirmedCar(page: Page, owner: APIRequestContext, name: string): Promise<number> {
  const { vehicleId } = await applicantWithVehicle(owner, {
    brand: 'Lancia',
    model: 'Delta HF Integrale',
    name,
  });
  await setVehicleStatus(page.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  await expect
    .poll(async () => (await adminVehicle(page.request, vehicleId)).invitation?.startNumber, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
  await setVehicleStatus(page.request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  return (await adminVehicle(page.request, vehicleId)).invitation!.startNumber;
}

test('an admin opens the voting, a visitor confirms a vote by the mailed link, the ranking and certificates follow', async ({
  page,
  browser,
}) => {
  await signInAsStaff(page, 'admin', 'Arne');
  const first = await browser.newContext({ baseURL: BASE_URL });
  const second = await browser.newContext({ baseURL: BASE_URL });
  const dea = await confirmedCar(page, first.request, 'Dea');
  const stratos = await confirmedCar(page, second.request, 'Stratos');
  const editions = (await (await page.request.get('/api/admin/editions')).json()) as {
    editions: { year: number; current: boolean }[];
  };
  const year = editions.editions.find((edition) => edition.current)!.year;

  await page.goto('/admin/publikumsliebling');
  await expect(page.getByRole('heading', { name: 'Publikumsliebling', level: 1 })).toBeVisible();
  await expect(page.getByText('Noch nicht geöffnet')).toBeVisible();
  await page.getByRole('button', { name: 'Abstimmung jetzt öffnen' }).click();
  await expect(page.getByText('Abstimmung läuft')).toBeVisible();

  // A visitor votes with an address: pending until the mailed link's button is pressed.
  const visitor = await browser.newContext({ baseURL: BASE_URL });
  const email = uniqueEmail('publikum');
  for (const startNumber of [dea, stratos]) {
    const vote = await visitor.request.post(`/api/award/${year}/votes`, {
      headers: { Origin: BASE_URL },
      data: { startNumber, email },
    });
    expect(vote.status(), await vote.text()).toBe(202);
  }
  const mail = await waitForMail(email, /Publikumsliebling/);
  expect(mail.text).not.toContain('Dea');
  const confirmLink = linkIn(mail, `${BASE_URL}/publikumsliebling/bestaetigen?token=`);
  const votesLink = linkIn(mail, `${BASE_URL}/publikumsliebling/meine-stimmen?token=`);
  const tab = await visitor.newPage();
  await tab.goto(confirmLink);
  await expect(tab.getByRole('button', { name: 'Adresse bestätigen' })).toBeVisible();
  await captureEverywhere(tab, 'publikumsliebling-bestaetigen');
  await tab.getByRole('button', { name: 'Adresse bestätigen' }).click();
  await expect(tab.getByRole('status')).toContainText('Deine E-Mail-Adresse ist bestätigt');
  const me = (await (await visitor.request.get(`/api/award/${year}/me`)).json()) as { votes: number[] };
  expect(me.votes.sort()).toEqual([dea, stratos].sort());
  // With the cookie, taking back one vote needs no mail.
  const back = await visitor.request.delete(`/api/award/${year}/votes/${stratos}`, {
    headers: { Origin: BASE_URL },
  });
  expect(back.status()).toBe(200);

  await tab.goto(votesLink);
  await expect(tab.getByRole('button', { name: 'Meine Stimmen herunterladen' })).toBeVisible();
  await captureEverywhere(tab, 'publikumsliebling-meine-stimmen');

  await page.reload();
  const ranking = page.getByRole('article', { name: 'Rangliste' });
  await expect(ranking).toContainText('Dea');
  await expect(ranking).toContainText('1 Stimme');
  await captureEverywhere(page, 'admin-publikumsliebling');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole('button', { name: 'Abstimmung jetzt beenden' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Abstimmung beenden' }).click();
  const result = page.getByRole('article', { name: 'Endergebnis' });
  await expect(result.getByRole('link', { name: /Urkunde/ })).toBeVisible({ timeout: 60_000 });
  await captureEverywhere(page, 'admin-publikumsliebling-beendet');
  for (const context of [first, second, visitor]) await context.close();
});

import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  adminVehicle,
  BASE_URL,
  captureEverywhere,
  expectAccessible,
  PASSWORD,
  registerViaApi,
  setVehicleStatus,
  signInAsStaff,
  SUBMISSION_CONSENTS,
  uniqueEmail,
} from './support';

/**
 * The jury on the meeting day: a judge scores three cars of a class on a phone, one while the
 * phone is offline; the head judge closes the class; the ceremony reveals the winner from the last
 * place on; the published results are public. What the organizers see:
 * docs/organisation.md#jury-und-siegerehrung.
 */

const PHONE = { width: 390, height: 844 };

interface Car {
  startNumber: number;
  name: string;
}

/** A confirmed car of this run's tuning category (the class takes those only). */
async function confirmedCar(browser: Browser, admin: Page, name: string, category: string): Promise<Car> {
  const context = await browser.newContext({ baseURL: BASE_URL });
  const email = uniqueEmail('teilnehmer');
  await registerViaApi(context.request, { email, firstName: 'Karla', lastName: 'Seidel' });
  const created = await context.request.post('/api/vehicles', {
    headers: { Origin: BASE_URL },
    data: {
      brand: 'Lancia',
      model: 'Delta Integrale',
      name,
      year: 1992,
      color: 'Rot',
      ps: 215,
      weightKg: 1300,
      topSpeedKmh: 220,
      zeroToHundredS: 5.7,
      tuningCategories: [category],
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const vehicleId = ((await created.json()) as { id: string }).id;
  await context.close();
  await setVehicleStatus(admin.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  await expect
    .poll(async () => (await adminVehicle(admin.request, vehicleId)).invitation?.startNumber ?? null, {
      timeout: 30_000,
    })
    .not.toBeNull();
  await setVehicleStatus(admin.request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  const { invitation } = await adminVehicle(admin.request, vehicleId);
  return { startNumber: invitation!.startNumber, name };
}

/** A judge on a phone-sized browser, signed in through the login page. */
async function judgeOnPhone(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: PHONE,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  const login = await page.request.post('/api/auth/login', {
    headers: { Origin: BASE_URL },
    data: { email, password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  return page;
}

/** Scores one car on its scorecard: a value per criterion by pressing its button. */
async function score(page: Page, values: Record<string, number>): Promise<void> {
  for (const [criterion, value] of Object.entries(values)) {
    const group = page.getByRole('group', { name: new RegExp(`^${criterion} Gewicht`) });
    await group.getByRole('radio', { name: String(value), exact: true }).click();
    await expect(group.getByRole('radio', { name: String(value), exact: true })).toBeChecked();
  }
}

test('a judge scores three cars on a phone, one offline; the head judge closes; the ceremony reveals the winner', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signInAsStaff(page, 'admin', 'Anna');
  const category = `Jury ${Date.now().toString(36)}`;
  const cars = [
    await confirmedCar(browser, page, 'Jury Rotkäppchen', category),
    await confirmedCar(browser, page, 'Jury Blauwal', category),
    await confirmedCar(browser, page, 'Jury Grünspan', category),
  ];

  const year = (
    (await (await page.request.get('/api/admin/editions')).json()) as {
      editions: { year: number; current: boolean }[];
    }
  ).editions.find((edition) => edition.current)!.year;
  // Two judges: the judge and the head judge, accounts with confirmed addresses.
  const accounts = { judge: uniqueEmail('jurorin'), head: uniqueEmail('jurychef') };
  for (const [key, email] of Object.entries(accounts)) {
    const context = await browser.newContext({ baseURL: BASE_URL });
    await registerViaApi(context.request, {
      email,
      firstName: key === 'head' ? 'Hanna' : 'Judith',
      lastName: 'Jury',
    });
    await context.close();
    const added = await page.request.post(`/api/admin/jury/${year}/judges`, {
      headers: { Origin: BASE_URL },
      data: { email },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  const view = (await (await page.request.get(`/api/admin/jury/${year}`)).json()) as {
    judges: { userId: string; email: string }[];
  };
  const idOf = (email: string) => view.judges.find((judge) => judge.email === email)!.userId;
  const created = await page.request.post(`/api/admin/jury/${year}/classes`, {
    headers: { Origin: BASE_URL },
    data: {
      name: 'Bester Umbau',
      scope: { zones: [], categories: [category], yearFrom: null, yearTo: null },
      criteria: [
        { name: 'Qualität des Umbaus', weight: 2 },
        { name: 'Sauberkeit', weight: 1 },
      ],
      places: 3,
      judgeIds: [idOf(accounts.judge), idOf(accounts.head)],
      headJudgeId: idOf(accounts.head),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const classId = ((await created.json()) as { id: string }).id;

  // The judge on the phone: the class with its three cars in walking order.
  const judge = await judgeOnPhone(browser, accounts.judge);
  await judge.goto('/jury');
  await expect(judge.getByRole('heading', { level: 1, name: 'Jury' })).toBeVisible();
  await expect(judge.getByTestId('jury-car')).toHaveCount(3);
  await expect(judge.getByTestId('jury-class-summary')).toContainText('0 von 3');
  await expectAccessible(judge, '/jury');
  // The service worker keeps the jury's pages before the network goes.
  await judge.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return !!registration?.active;
  });

  // Cars one and two online.
  const values = [
    { 'Qualität des Umbaus': 9, Sauberkeit: 8 },
    { 'Qualität des Umbaus': 6, Sauberkeit: 7 },
    { 'Qualität des Umbaus': 4, Sauberkeit: 9 },
  ];
  for (const [index, car] of cars.slice(0, 2).entries()) {
    await judge.goto(`/jury/${car.startNumber}`);
    await expect(judge.getByRole('heading', { level: 1, name: car.name })).toBeVisible();
    await score(judge, values[index]!);
    await expect(judge.getByTestId('jury-car-pending')).toHaveText(
      /^Online · Warten auf Versand: 0 Eingaben/,
      {
        timeout: 20_000,
      },
    );
  }
  await captureEverywhere(judge, 'jury-scorecard');
  await judge.setViewportSize(PHONE);

  // Car three with the phone offline: kept on the device, a reload loses nothing.
  await judge.goto(`/jury/${cars[2]!.startNumber}`);
  await expect(judge.getByRole('heading', { level: 1, name: cars[2]!.name })).toBeVisible();
  await judge.context().setOffline(true);
  await score(judge, values[2]!);
  await expect(judge.getByTestId('jury-car-pending')).toHaveText(/^Offline · Warten auf Versand: 2\b/);
  await judge.reload();
  await expect(judge.getByRole('heading', { level: 1, name: cars[2]!.name })).toBeVisible();
  await expect(judge.getByTestId('jury-car-pending')).toHaveText(/^Offline · Warten auf Versand: 2\b/);
  const group = judge.getByRole('group', { name: /^Sauberkeit Gewicht/ });
  await expect(group.getByRole('radio', { name: '9', exact: true })).toBeChecked();
  await captureEverywhere(judge, 'jury-offline');
  await judge.setViewportSize(PHONE);
  // Online again: sent once, and the server holds all three cards.
  await judge.context().setOffline(false);
  await expect(judge.getByTestId('jury-car-pending')).toHaveText(/^Online · Warten auf Versand: 0 Eingaben/, {
    timeout: 40_000,
  });
  const own = (await (await judge.request.get('/api/jury')).json()) as {
    scores: { startNumber: number; value: number }[];
  };
  expect(own.scores.filter((s) => cars.some((car) => car.startNumber === s.startNumber))).toHaveLength(6);

  // The head judge scores on their phone too (through the same sync), then closes the class.
  const head = await judgeOnPhone(browser, accounts.head);
  const entries = cars.flatMap((car, index) =>
    Object.entries(values[index]!).map(([name, value]) => ({ name, value, startNumber: car.startNumber })),
  );
  const headView = (await (await head.request.get('/api/jury')).json()) as {
    classes: { id: string; criteria: { id: string; name: string }[] }[];
  };
  const criteria = headView.classes.find((c) => c.id === classId)!.criteria;
  const synced = await head.request.post('/api/jury/sync', {
    headers: { Origin: BASE_URL },
    data: {
      deviceId: crypto.randomUUID(),
      entries: entries.map((entry) => ({
        id: crypto.randomUUID(),
        classId,
        startNumber: entry.startNumber,
        criterion: criteria.find((c) => c.name === entry.name)!.id,
        value: entry.value,
        enteredAt: new Date().toISOString(),
      })),
    },
  });
  expect(synced.status(), await synced.text()).toBe(200);
  await head.goto(`/jury/klasse/${classId}`);
  await expect(head.getByRole('heading', { level: 1, name: 'Bester Umbau' })).toBeVisible();
  await head.getByRole('button', { name: 'Klasse abschließen' }).click();
  const ranking = head.getByRole('region', { name: 'Ergebnis' });
  await expect(ranking).toContainText(cars[0]!.name, { timeout: 20_000 });
  await captureEverywhere(head, 'jury-class-closed');

  // The ceremony on the projector: the class from its last place to the first.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/admin/siegerehrung');
  const stage = page.getByRole('region', { name: 'Siegerehrung' });
  await expect(stage).toBeVisible();
  await expectAccessible(page, '/admin/siegerehrung');
  await page.keyboard.press('ArrowRight');
  await expect(stage.getByRole('heading', { level: 1, name: 'Bester Umbau' })).toBeVisible();
  await page.keyboard.press('PageDown');
  await expect(stage).toContainText(cars[2]!.name);
  await expect(stage).not.toContainText(cars[0]!.name);
  await page.keyboard.press('Space');
  await expect(stage).toContainText(cars[1]!.name);
  await page.keyboard.press('ArrowRight');
  await expect(stage).toContainText('1. Platz');
  await expect(stage).toContainText(cars[0]!.name);
  await page.screenshot({ path: 'test-results/screenshots/jury-ceremony-winner.png' });

  // Published: the results page, server-rendered, and the winner's page names its place.
  const published = await page.request.post(`/api/admin/jury/${year}/publish`, {
    headers: { Origin: BASE_URL },
  });
  expect(published.status(), await published.text()).toBe(200);
  const html = await (await page.request.get(`/ergebnisse/${year}`)).text();
  expect(html).toContain(cars[0]!.name);
  expect(html).toMatch(/<meta[^>]+property="og:title"/);
  const visitorContext = await browser.newContext({ baseURL: BASE_URL, viewport: PHONE, locale: 'de-DE' });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/ergebnisse/${year}`);
  await expect(visitor.getByText(cars[0]!.name).first()).toBeVisible();
  await expectAccessible(visitor, `/ergebnisse/${year}`);
  await captureEverywhere(visitor, 'jury-results');
  await visitor.goto(`/fahrzeuge/${year}/${cars[0]!.startNumber}`);
  await expect(visitor.getByText(`1. Platz – Bester Umbau ${year}`)).toBeVisible();
  await visitorContext.close();
  await judge.context().close();
  await head.context().close();
});

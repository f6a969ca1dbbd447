import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  adminVehicle,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  field,
  setVehicleStatus,
  signInAsStaff,
  waitForMail,
} from './support';

/**
 * The event day: two gates check cars in while offline; the server keeps the first scan. What the
 * organizers see: docs/organisation.md#der-veranstaltungstag; this run:
 * docs/development.md#organizer-features-measured.
 */

interface Car {
  vehicleId: string;
  email: string;
  name: string;
  startNumber: number;
  code: string;
}

/** An invited car (confirmed unless told otherwise) with the start number and code from its mail. */
async function invitedCar(browser: Browser, admin: Page, name: string, confirm = true): Promise<Car> {
  const applicant = await browser.newContext({ baseURL: BASE_URL });
  const { email, vehicleId } = await applicantWithVehicle(applicant.request, {
    brand: 'Peugeot',
    model: '205 GTI',
    name,
  });
  await applicant.close();
  await setVehicleStatus(admin.request, vehicleId, { status: 'invited', oldStatus: 'submitted' });
  const mail = await waitForMail(email, /Einladung/);
  if (confirm)
    await setVehicleStatus(admin.request, vehicleId, { status: 'confirmed', oldStatus: 'invited' });
  const code = /dieser Code:\s+(\S+)/.exec(mail.text)?.[1];
  expect(code, 'check-in code in the mail').toBeTruthy();
  const { invitation } = await adminVehicle(admin.request, vehicleId);
  return { vehicleId, email, name, startNumber: invitation!.startNumber, code: code! };
}

/** A gate: a phone-sized browser context signed in as staff, on the check-in screen, list loaded. */
async function openGate(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: { width: 390, height: 844 },
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  const page = await context.newPage();
  await signInAsStaff(page, 'reviewer', name.replace(/\s/g, ''));
  await page.goto('/admin/check-in');
  await expect(page.getByRole('heading', { level: 1, name: 'Check-in' })).toBeVisible();
  await expect(page.getByTestId('gate-list')).toContainText('Fahrzeuge, Stand');
  await page.getByLabel('Name dieses Einlasses').fill(name);
  await page.getByRole('button', { name: 'Speichern' }).click();
  // The service worker holds the screen's code and the page before the network goes.
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return !!registration?.active && !!(await caches.match('/admin/check-in'));
  });
  return page;
}

async function enter(gate: Page, code: string | number, verdict: string | RegExp): Promise<void> {
  await field(gate, 'Check-in-Code oder Startnummer').fill(String(code));
  await gate.getByRole('button', { name: 'Einchecken' }).click();
  await expect(gate.getByRole('group', { name: verdict, exact: typeof verdict === 'string' })).toBeVisible();
}

async function next(gate: Page): Promise<void> {
  await gate.getByRole('button', { name: 'Nächstes Fahrzeug' }).click();
}

/** What the gate holds in IndexedDB, every store, as text. */
async function gateStorage(gate: Page): Promise<string> {
  return gate.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('schlosstreffen-gate');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all: Record<string, unknown[]> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      all[name] = await new Promise<unknown[]>((resolve) => {
        const request = db.transaction(name).objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
      });
    }
    db.close();
    return JSON.stringify(all);
  });
}

test('two gates admit cars offline; online again the first scan wins and the later gate sees its duplicate', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signInAsStaff(page, 'admin', 'Anna');
  const car1 = await invitedCar(browser, page, 'Gate Eins');
  const car2 = await invitedCar(browser, page, 'Gate Zwei');
  const car3 = await invitedCar(browser, page, 'Gate Drei');
  const waiting = await invitedCar(browser, page, 'Gate Wartet', false);

  const gateA = await openGate(browser, 'Tor A');
  const gateB = await openGate(browser, 'Tor B');
  await gateA.context().setOffline(true);
  await gateB.context().setOffline(true);
  await expect(gateA.getByTestId('gate-online')).toHaveText('Offline');

  // Gate A: car 1 by its code (as the QR code carries it), car 2 by its start number.
  await enter(gateA, car1.code, 'Eingecheckt');
  await expect(gateA.getByRole('group', { name: 'Eingecheckt', exact: true })).toContainText('Gate Eins');
  await next(gateA);
  await enter(gateA, car2.startNumber, 'Eingecheckt');
  await next(gateA);
  await enter(gateA, car2.startNumber, /^Bereits eingecheckt um \d{2}:\d{2}/);
  await next(gateA);
  await expect(gateA.getByTestId('gate-pending')).toHaveText('2 Scans');
  await captureEverywhere(gateA, 'gate-offline');

  // Refused offline: a code not on the list, and a car whose owner has not confirmed.
  await enter(gateA, 'kein-code-auf-der-liste-123456', 'Unbekannter Code');
  await next(gateA);
  await enter(gateA, waiting.startNumber, 'Nicht bestätigt');
  await expect(gateA.getByRole('group', { name: 'Nicht bestätigt' })).toContainText('Gate Wartet');
  await next(gateA);
  await enter(gateA, waiting.code, 'Nicht bestätigt');
  await next(gateA);

  // Gate B, later: car 2 again (A was first) and car 3.
  await gateB.waitForTimeout(1100);
  await enter(gateB, car2.code, 'Eingecheckt');
  await next(gateB);
  await enter(gateB, car3.startNumber, 'Eingecheckt');
  await next(gateB);
  await expect(gateB.getByTestId('gate-pending')).toHaveText('2 Scans');

  // A reload without network still opens the check-in screen, with its list and queue.
  await gateA.reload();
  await expect(gateA.getByRole('heading', { level: 1, name: 'Check-in' })).toBeVisible();
  await expect(gateA.getByTestId('gate-online')).toHaveText('Offline');
  await expect(gateA.getByTestId('gate-pending')).toHaveText('2 Scans');
  await enter(gateA, car1.startNumber, /^Bereits eingecheckt um/);
  await next(gateA);

  // The gate list holds no email, phone or check-in code in clear.
  const stored = await gateStorage(gateA);
  expect(stored).toContain('Gate Eins');
  for (const secret of [car1.code, car2.code, car3.code, waiting.code, car1.email, 'Seidel', '@']) {
    expect(stored, secret).not.toContain(secret);
  }

  // Online again, B first: its later scan of car 2 counts until A's earlier one arrives.
  await gateB.context().setOffline(false);
  await expect(gateB.getByTestId('gate-pending')).toHaveText('0 Scans', { timeout: 30_000 });
  await gateA.context().setOffline(false);
  await expect(gateA.getByTestId('gate-pending')).toHaveText('0 Scans', { timeout: 30_000 });
  await expect(gateA.getByTestId('gate-conflicts')).toHaveCount(0);
  const duplicate = gateB.getByTestId('gate-conflicts');
  await expect(duplicate).toContainText(`Startnummer ${car2.startNumber}`, { timeout: 40_000 });
  await expect(duplicate).toContainText(/Doppelt: schon um \d{2}:\d{2} Uhr an „Tor A“ eingecheckt/);
  await captureEverywhere(gateB, 'gate-duplicate');

  // The server: cars 1–3 in once each, car 2 at A's time; the unconfirmed car not in.
  const aScanOfCar2 = JSON.parse(await gateStorage(gateA)) as {
    scans: Array<{ startNumber: number; scannedAt: string; state: string }>;
  };
  const aTime = aScanOfCar2.scans.find((scan) => scan.startNumber === car2.startNumber)!;
  expect(aTime.state).toBe('admitted');
  for (const car of [car1, car2, car3]) {
    expect((await adminVehicle(page.request, car.vehicleId)).invitation?.checkedIn, car.name).toBe(true);
  }
  expect((await adminVehicle(page.request, car2.vehicleId)).invitation?.checkedInAt).toBe(aTime.scannedAt);
  expect((await adminVehicle(page.request, waiting.vehicleId)).invitation?.checkedIn).toBe(false);

  // The 'Einlass' board: per zone, over time, the last scans with their gate.
  await page.goto('/admin/einlass');
  await expect(page.getByRole('heading', { level: 1, name: 'Einlass' })).toBeVisible();
  const scans = page.getByRole('list', { name: 'Letzte Scans' });
  await expect(scans.getByRole('listitem').filter({ hasText: 'Gate Zwei' })).toHaveCount(2);
  await expect(
    scans.getByRole('listitem').filter({ hasText: 'Gate Zwei' }).filter({ hasText: 'Tor B' }),
  ).toContainText('Doppelt');
  await expect(scans.getByRole('listitem').filter({ hasText: 'Gate Drei' })).toContainText('Tor B');
  const arrived = Number((await page.getByTestId('arrivals-total').innerText()).split('/')[0]!.trim());
  expect(arrived).toBeGreaterThanOrEqual(3);
  await expect(page.getByRole('list', { name: 'Parkzonen' }).getByRole('progressbar').first()).toBeVisible();
  const buckets = page.getByTestId('arrivals-bucket');
  await expect(buckets.first()).toBeAttached();
  const perBucket = await buckets.evaluateAll((nodes) =>
    nodes.map((node) => Number(node.getAttribute('data-arrived'))),
  );
  expect(perBucket.reduce((sum, count) => sum + count, 0)).toBe(arrived);
  await captureEverywhere(page, 'admin-arrivals');

  // The organizers' export names the gate that let each car in.
  const csv = await (await page.request.get('/api/admin/vehicles.csv')).text();
  const line = csv.split('\r\n').find((row) => row.includes(car2.vehicleId))!;
  expect(line).toMatch(/"Tor A"$/);

  // Signing out deletes the list from the device.
  await gateB.setViewportSize({ width: 1280, height: 800 });
  await gateB.getByRole('button', { name: 'Abmelden' }).click();
  await expect(gateB.getByText('Erfolgreich abgemeldet')).toBeVisible();
  // The page reloads after signing out: a look during the reload counts as not yet.
  const databases = () =>
    gateB
      .evaluate(async () => (await indexedDB.databases()).map((db) => db.name))
      .catch(() => ['schlosstreffen-gate']);
  await expect.poll(databases).not.toContain('schlosstreffen-gate');

  await gateA.context().close();
  await gateB.context().close();
});

test('a gate whose clock is a year behind: the server refuses its scan, and the gate shows it refused with the reason', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInAsStaff(page, 'admin', 'Anna');
  const car = await invitedCar(browser, page, 'Gate Zeitreise');
  const gate = await openGate(browser, 'Tor Z');
  await gate.clock.setFixedTime(new Date(Date.now() - 365 * 24 * 3600 * 1000));

  // The device cannot know its clock is wrong: it lets the car in and queues the scan.
  await enter(gate, car.code, 'Eingecheckt');
  await next(gate);
  const refused = gate.getByTestId('gate-refused');
  await expect(refused).toContainText(`Startnummer ${car.startNumber}`, { timeout: 30_000 });
  await expect(refused).toContainText(
    /Außerhalb der Einlasszeit: Scan vom \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr nicht übernommen\. Eingecheckt wird vom .+ bis .+\. Bitte die Uhrzeit des Geräts prüfen\./,
  );
  // Not waiting to be sent again, and not in at the server.
  await expect(gate.getByTestId('gate-pending')).toHaveText('0 Scans');
  expect((await adminVehicle(page.request, car.vehicleId)).invitation?.checkedIn).toBe(false);
  // Its line under 'Zuletzt eingecheckt' says so too.
  await expect(
    gate
      .getByRole('region', { name: 'Zuletzt eingecheckt' })
      .getByRole('listitem')
      .filter({ hasText: 'Gate Zeitreise' }),
  ).toContainText('Abgelehnt');
  await captureEverywhere(gate, 'gate-refused');
  await gate.context().close();
});

import { expect, test, type Browser } from '@playwright/test';
import path from 'node:path';
import {
  BASE_URL,
  expectAccessible,
  field,
  linkIn,
  SCREENSHOT_DIR,
  signInAsStaff,
  uniqueEmail,
  untilLive,
  waitForMail,
} from './support';

/**
 * Visitor tickets on a phone: with a capacity on the edition, a visitor signs up, confirms, gets the
 * ticket by mail, opens the ticket page, and still sees its code once the phone is offline; the gate
 * (a phone as well) lets the ticket in once, the second scan says when, and the board counts it.
 */

const PHONE = { width: 390, height: 844 };
const phoneContext = (browser: Browser) =>
  browser.newContext({ baseURL: BASE_URL, viewport: PHONE, locale: 'de-DE', timezoneId: 'Europe/Berlin' });

test('a visitor signs up, confirms, opens the ticket, still shows it offline, and the gate scans it', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  await signInAsStaff(page, 'admin', 'Anna');
  const year = (
    (await (await page.request.get('/api/admin/editions')).json()) as {
      editions: { year: number; current: boolean }[];
    }
  ).editions.find((edition) => edition.current)!.year;
  const setCapacity = async (visitorTickets: { capacity: number } | null) => {
    const res = await page.request.patch(`/api/admin/editions/${year}`, {
      headers: { Origin: BASE_URL },
      data: { visitorTickets },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await setCapacity({ capacity: 500 });
  try {
    const context = await phoneContext(browser);
    const phone = await context.newPage();
    const email = uniqueEmail('besucherin');
    await phone.goto('/visitor-registration');
    await untilLive(phone);
    await field(phone, 'Vorname').fill('Tina');
    await field(phone, 'Nachname').fill('Ticket');
    await field(phone, 'E-Mail').fill(email);
    await phone.getByRole('button', { name: 'Jetzt vormerken', exact: true }).click();
    await expect(phone.getByRole('heading', { name: 'Vielen Dank!' })).toBeVisible();
    const confirmation = await waitForMail(email, /Vormerkung/);
    await phone.goto(linkIn(confirmation, `${BASE_URL}/besucher/bestaetigen?token=`));
    await phone.getByRole('button', { name: 'Vormerkung bestätigen' }).click();
    await expect(
      phone.getByText('Dein Besucherticket kommt gleich per E-Mail', { exact: false }),
    ).toBeVisible();

    const ticketMail = await waitForMail(email, /Dein Besucherticket/, 30_000);
    const ticketUrl = linkIn(ticketMail, `${BASE_URL}/besucherticket/`);
    const ticketCode = new URL(ticketUrl).pathname.split('/').at(-1)!;
    expect(ticketCode).toMatch(/^VT[A-Za-z0-9_-]{32}$/);
    await phone.goto(ticketUrl);
    await expect(phone.getByRole('heading', { level: 1, name: 'Besucherticket' })).toBeVisible();
    await expect(phone.getByText('Tina Ticket', { exact: false })).toBeVisible();
    const qr = phone.getByRole('img', { name: 'QR-Code des Besuchertickets' });
    await expect(qr).toBeVisible();
    await expectAccessible(phone, 'the visitor ticket (phone)');
    await phone.screenshot({ path: path.join(SCREENSHOT_DIR, 'visitor-ticket-phone.png'), fullPage: true });

    // The service worker keeps the opened page (the page puts itself into its cache).
    await phone.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      if (!registration?.active) return false;
      const cache = await caches.open('visitor-ticket-page');
      return !!(await cache.match(location.href, { ignoreSearch: true, ignoreVary: true }));
    });

    // Once active, the worker takes this first page over (clients.claim): a reload goes through it.
    await phone.waitForFunction(() => !!navigator.serviceWorker.controller);
    // Offline at the gate: the open page keeps the code, and the page's own copy shows it when the
    // ticket is asked for again without network (the app's offline fallback).
    await context.setOffline(true);
    await phone.evaluate(() => window.dispatchEvent(new Event('offline')));
    await expect(phone.getByRole('img', { name: 'QR-Code des Besuchertickets' })).toBeVisible();
    const kept = await phone.evaluate(
      () => Object.keys(localStorage).filter((key) => key.startsWith('besucherticket:')).length,
    );
    expect(kept).toBeGreaterThan(0);
    await phone.screenshot({
      path: path.join(SCREENSHOT_DIR, 'visitor-ticket-offline-phone.png'),
      fullPage: true,
    });
    await context.close();

    // At the gate, on a phone with the list loaded: the ticket is let in once.
    const gateContext = await phoneContext(browser);
    const gate = await gateContext.newPage();
    await signInAsStaff(gate, 'reviewer', 'Gerd');
    await gate.goto('/admin/check-in');
    await expect(gate.getByRole('heading', { level: 1, name: 'Check-in' })).toBeVisible();
    await expect(gate.getByTestId('gate-tickets')).toContainText(/\d+ Besucherticket/);
    const scan = async (verdict: string | RegExp) => {
      await field(gate, 'Check-in-Code oder Startnummer').fill(ticketCode);
      await gate.getByRole('button', { name: 'Einchecken' }).click();
      const result = gate.getByRole('group', { name: verdict });
      await expect(result).toBeVisible();
      return result;
    };
    await scan('Besucher eingelassen');
    await gate.screenshot({
      path: path.join(SCREENSHOT_DIR, 'visitor-ticket-gate-phone.png'),
      fullPage: true,
    });
    await gate.getByRole('button', { name: 'Nächster Scan' }).click();
    await scan(/Bereits eingecheckt um \d{2}:\d{2} Uhr/);
    await expectAccessible(gate, 'the gate with a visitor ticket (phone)');
    // The server has the scan: the board counts one visitor more.
    await expect
      .poll(async () => {
        const board = (await (await gate.request.get('/api/admin/arrivals')).json()) as {
          visitors: { admitted: number } | null;
        };
        return board.visitors?.admitted ?? 0;
      })
      .toBeGreaterThan(0);
    await gate.goto('/admin/einlass');
    await expect(gate.getByText('Jetzt auf dem Gelände')).toBeVisible();
    await gate.screenshot({ path: path.join(SCREENSHOT_DIR, 'visitor-board-phone.png'), fullPage: true });
    await gateContext.close();
  } finally {
    await setCapacity(null);
  }
});

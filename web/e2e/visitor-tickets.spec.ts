import { expect, test } from '@playwright/test';
import path from 'node:path';
import {
  BASE_URL,
  expectAccessible,
  linkIn,
  SCREENSHOT_DIR,
  signInAsStaff,
  uniqueEmail,
  waitForMail,
} from './support';

/**
 * Visitor tickets on a phone: with a capacity on the edition, a visitor signs up, confirms, gets the
 * ticket by mail, opens the ticket page, and still sees its code once the phone is offline.
 */

const PHONE = { width: 390, height: 844 };

test('a visitor confirms, opens the ticket and still shows it offline', async ({ browser, page }) => {
  test.setTimeout(120_000);
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
    const context = await browser.newContext({
      baseURL: BASE_URL,
      viewport: PHONE,
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
    });
    const phone = await context.newPage();
    const email = uniqueEmail('besucherin');
    const signUp = await phone.request.post('/api/visitor-registrations', {
      headers: { Origin: BASE_URL },
      data: { firstName: 'Tina', lastName: 'Ticket', email },
    });
    expect(signUp.status()).toBe(201);
    const confirmation = await waitForMail(email, /Vormerkung/);
    await phone.goto(linkIn(confirmation, `${BASE_URL}/besucher/bestaetigen?token=`));
    await phone.getByRole('button', { name: 'Vormerkung bestätigen' }).click();
    await expect(
      phone.getByText('Dein Besucherticket kommt gleich per E-Mail', { exact: false }),
    ).toBeVisible();

    const ticketMail = await waitForMail(email, /Dein Besucherticket/, 30_000);
    await phone.goto(linkIn(ticketMail, `${BASE_URL}/besucherticket/`));
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
  } finally {
    await setCapacity(null);
  }
});

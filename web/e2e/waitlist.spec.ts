import { expect, test, type Page } from '@playwright/test';
import {
  adminVehicle,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  linkIn,
  setVehicleStatus,
  signInAsStaff,
  waitForMail,
} from './support';

/** The weeks before the event: a decline from the mail passes the place on to the waitlist. */

/** The admin dialog's history of the car called `name`, found by searching its model. */
async function historyOf(page: Page, name: string, model: string) {
  await page.goto(`/admin/dashboard?q=${encodeURIComponent(model)}`);
  await page.getByRole('article').filter({ hasText: name }).getByRole('button', { name }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Admin' }).click();
  return dialog.getByRole('list', { name: 'Änderungsverlauf' });
}

test('an invited owner declines from the mail link; the best-ranked waitlisted car moves up at once with a new start number in the freed zone', async ({
  page,
  browser,
}) => {
  await signInAsStaff(page, 'admin', 'Anna');
  const applicants = await browser.newContext({ baseURL: BASE_URL });
  const invited = await applicantWithVehicle(applicants.request, {
    brand: 'Alpine',
    model: 'A110',
    name: 'Blaue Alpine',
  });
  await applicants.clearCookies();
  const best = await applicantWithVehicle(applicants.request, {
    brand: 'Lotus',
    model: 'Exige',
    name: 'Gelbe Exige',
  });
  await applicants.clearCookies();
  const second = await applicantWithVehicle(applicants.request, {
    brand: 'Fiat',
    model: 'X1/9',
    name: 'Kleiner Fiat',
  });
  await applicants.close();

  await setVehicleStatus(page.request, invited.vehicleId, { status: 'invited', oldStatus: 'submitted' });
  const invitation = await waitForMail(invited.email, /Einladung/);
  const before = await adminVehicle(page.request, invited.vehicleId);
  expect(invitation.subject).toContain(`Startnummer ${before.invitation!.startNumber}`);
  expect(invitation.text).toMatch(/Bestätigen bis/);
  await setVehicleStatus(page.request, second.vehicleId, {
    status: 'waitlist',
    oldStatus: 'submitted',
    score: 3,
  });
  await setVehicleStatus(page.request, best.vehicleId, {
    status: 'waitlist',
    oldStatus: 'submitted',
    score: 9,
  });

  // The link from the mail, in a browser without any session; it asks before it declines.
  const owner = await browser.newContext({ baseURL: BASE_URL, locale: 'de-DE' });
  const ownerPage = await owner.newPage();
  await ownerPage.goto(linkIn(invitation, `${BASE_URL}/einladung/absagen`).replace(BASE_URL, ''));
  await expect(ownerPage.getByRole('heading', { name: 'Teilnahme absagen' })).toBeVisible();
  await expect(ownerPage.getByText('Wirklich absagen?')).toBeVisible();
  await captureEverywhere(ownerPage, 'decline-confirm');
  const declinedAt = Date.now();
  await ownerPage.getByRole('button', { name: 'Ja, Teilnahme absagen' }).click();
  await expect(ownerPage.getByText('Deine Teilnahme ist abgesagt.')).toBeVisible();
  await owner.close();
  await waitForMail(invited.email, /Absage/);

  // The best-ranked waitlisted car is invited within seconds: new start number, the freed zone.
  const movedUp = await waitForMail(best.email, /Einladung/, 10_000);
  const seconds = (Date.now() - declinedAt) / 1000;
  console.log(`moved up ${seconds.toFixed(1)} s after the decline`);
  const after = await adminVehicle(page.request, best.vehicleId);
  expect(after.status).toBe('invited');
  expect(after.invitation!.startNumber).toBeGreaterThan(before.invitation!.startNumber);
  expect(after.invitation!.parkingZone).toBe(before.invitation!.parkingZone);
  expect(movedUp.subject).toContain(`Startnummer ${after.invitation!.startNumber}`);
  expect(movedUp.text).toContain('von der Warteliste nachgerückt');
  // The invitation's facts list: 'Parkzone: A'.
  expect(movedUp.text).toMatch(new RegExp(`Parkzone:\\s+${after.invitation!.parkingZone}\\b`));
  expect((await adminVehicle(page.request, second.vehicleId)).status).toBe('waitlist');
  expect((await adminVehicle(page.request, invited.vehicleId)).invitation!.releaseReason).toBe('declined');

  // Both histories show the system's rows with their reasons.
  const movedHistory = await historyOf(page, 'Gelbe Exige', 'Exige');
  await expect(movedHistory.getByRole('listitem').first()).toContainText('System');
  await expect(movedHistory.getByRole('listitem').first()).toContainText(
    'Automatisch von der Warteliste nachgerückt',
  );
  await expect(movedHistory.getByRole('listitem').first()).toContainText('Rang 1, Bewertung 9');
  await captureEverywhere(page, 'waitlist-history-moved-up');
  const declinedHistory = await historyOf(page, 'Blaue Alpine', 'A110');
  await expect(declinedHistory.getByRole('listitem').first()).toContainText('System');
  await expect(declinedHistory.getByRole('listitem').first()).toContainText(
    'Teilnahme abgesagt (über den Link in der Einladung)',
  );

  // The dashboard's waitlist panel names the rule and the next in line.
  await page.goto('/admin/dashboard');
  const panel = page.getByRole('region', { name: 'Warteliste und Nachrücken' });
  await expect(panel).toContainText('höchster Bewertung');
  await expect(panel).toContainText('Kleiner Fiat');
  await captureEverywhere(page, 'admin-waitlist-panel');
});

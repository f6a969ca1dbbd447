import { expect, test } from '@playwright/test';
import {
  adminDialogOf,
  applicantWithVehicle,
  BASE_URL,
  captureEverywhere,
  linkIn,
  PASSWORD,
  refuseMailTo,
  setVehicleStatus,
  signInAsStaff,
  sql,
  waitForMail,
} from './support';

/**
 * Every mail's fate in the built app, against a mail server that refuses one address for good once
 * its mailbox is gone (550, see start-app.mjs): the rejection is 'abgelehnt' in the admin dialog with
 * the server's answer, the mail after it is held back, the owner's dashboard says why; once the owner
 * corrected the address, 'Erneut senden' delivers the rejection exactly once.
 */
test("a refused address: 'abgelehnt' with the server's answer, later mails held, the owner told; the resend arrives once", async ({
  page,
  browser,
}) => {
  const run = Date.now().toString(36);
  const model = `Scirocco ${run}`;
  await signInAsStaff(page, 'admin', 'Mara');

  const owner = await browser.newContext({ baseURL: BASE_URL });
  const ownerPage = await owner.newPage();
  const { email: refused, vehicleId } = await applicantWithVehicle(ownerPage.request, { brand: 'VW', model });
  const corrected = `korrigiert-${run}@example.de`;
  const stateOf = async (template: string) =>
    (
      await sql<{ status: string }>(
        `select status from email_log where vehicle_id = '${vehicleId}' and template = '${template}' order by created_at desc limit 1`,
      )
    )[0]?.status;
  // The receipt arrives while the mailbox still exists.
  await expect.poll(() => stateOf('application-received'), { timeout: 20_000 }).toBe('sent');

  // The mailbox is gone: the rejection is refused for good, and a later mail is held back.
  await refuseMailTo(refused);
  await setVehicleStatus(page.request, vehicleId, { status: 'rejected', oldStatus: 'submitted' });
  await expect.poll(() => stateOf('application-rejected'), { timeout: 20_000 }).toBe('refused');
  await setVehicleStatus(page.request, vehicleId, { status: 'waitlist', oldStatus: 'rejected' });
  await expect.poll(() => stateOf('application-waitlist'), { timeout: 20_000 }).toBe('held');

  const openMails = () => adminDialogOf(page, run, `VW ${model}`);
  let dialog = await openMails();
  const answer = `550 5.1.1 <${refused}>: Recipient address rejected: User unknown in virtual mailbox table`;
  await expect(dialog.getByRole('listitem').filter({ hasText: /^Eingangsbestätigung/ })).toContainText(
    'zugestellt',
  );
  const rejection = dialog.getByRole('listitem').filter({ hasText: /^Absage/ });
  await expect(rejection).toContainText('abgelehnt');
  await expect(rejection).toContainText(`Antwort des Mailservers: ${answer}`);
  const waitlist = dialog.getByRole('listitem').filter({ hasText: /^Warteliste/ });
  await expect(waitlist).toContainText('zurückgehalten');
  await expect(waitlist).toContainText(`Zurückgehalten, die Adresse wurde abgelehnt: ${answer}`);
  await rejection.scrollIntoViewIfNeeded();
  await captureEverywhere(page, 'admin-mail-fate');

  // The owner's dashboard (signed in since the registration) says why and where to correct it.
  await ownerPage.goto('/dashboard');
  const notice = ownerPage.getByTestId('mail-bounced-notice');
  await expect(notice).toContainText(`Die E-Mail an ${refused} wurde vom Empfänger-Server abgelehnt.`);
  // The server's answer is for the staff only.
  await expect(notice).not.toContainText('Recipient address rejected');
  await expect(notice.getByRole('link', { name: 'E-Mail-Adresse korrigieren' })).toBeVisible();
  await captureEverywhere(ownerPage, 'dashboard-mail-bounced');

  // The owner corrects the address; the link goes to the new one.
  const change = await ownerPage.request.patch('/api/auth/profile', {
    headers: { Origin: BASE_URL },
    data: { firstName: 'Karla', lastName: 'Seidel', email: corrected, currentPassword: PASSWORD },
  });
  expect(change.status(), await change.text()).toBe(200);
  const confirmMail = await waitForMail(corrected, /neue E-Mail-Adresse/);
  const token = new URL(linkIn(confirmMail, `${BASE_URL}/email-bestaetigen`)).searchParams.get('token');
  const confirmed = await ownerPage.request.post('/api/auth/confirm-email', {
    headers: { Origin: BASE_URL },
    data: { token },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  await ownerPage.reload();
  await expect(ownerPage.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(ownerPage.getByTestId('mail-bounced-notice')).toHaveCount(0);

  // 'Erneut senden': the rejection arrives once at the corrected address.
  dialog = await openMails();
  await dialog
    .getByRole('listitem')
    .filter({ hasText: /^Absage/ })
    .getByRole('button', { name: 'Erneut senden' })
    .click();
  await expect(page.getByText('Die E-Mail wird erneut gesendet.')).toBeVisible();
  const resent = await waitForMail(corrected, /^Deine Bewerbung beim Schlosstreffen$/);
  expect(resent.text).toContain('Hallo Karla,');
  await page.waitForTimeout(1500);
  const inbox = (await (await fetch('http://127.0.0.1:1180/email')).json()) as Array<{
    subject: string;
    to: { address: string }[];
  }>;
  expect(
    inbox.filter((m) => m.to.some((r) => r.address === corrected) && m.subject === resent.subject),
  ).toHaveLength(1);
  await expect
    .poll(
      async () =>
        (
          await sql<{ n: number }>(
            `select count(*)::int as n from email_log where recipient = '${corrected}' and template = 'application-rejected' and status = 'sent'`,
          )
        )[0]!.n,
    )
    .toBe(1);
  dialog = await openMails();
  await expect(dialog.getByRole('listitem').filter({ hasText: corrected }).first()).toContainText(
    'zugestellt',
  );
  await owner.close();
});

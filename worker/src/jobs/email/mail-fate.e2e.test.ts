import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { EmailLog, MailBounce } from '@schlosstreffen/api/core';
import {
  changeStatus,
  createTestContext,
  createVehicle,
  insertConfirmedUser,
  mailedLinkToken,
  PASSWORD,
  signInConfirmed,
  type SignedIn,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { eventFacts, mailBouncedNotice, MAIL_FATE_MESSAGES } from '@schlosstreffen/shared';
import type { CurrentUser, VehicleMails } from '@schlosstreffen/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { startWorkersWithPeer, type PeerWorkers, type SmtpPeer } from '../../testing.js';
import { createSendEmail } from './send-email.js';

/**
 * Every mail's fate against a real SMTP conversation: a receiving server that refuses one address
 * for good (550), defers another once (451) and refuses a third one's message at DATA (5.7.1). The
 * worker logs each answer, marks the refused address (only the one whose mailbox was refused) and
 * holds later mails to it; the admin's dialog lists them; the owner is told in German; after the
 * owner corrected the address, 'Erneut senden' delivers the mail once.
 */

const RUN = randomBytes(3).toString('hex');
const REFUSED = `tippfehler-${RUN}@example.de`;
const DEFERRED = `voll-${RUN}@example.de`;
const ANSWER_550 = `550 5.1.1 <${REFUSED}>: Recipient address rejected: User unknown`;
const CONTENT = `inhalt-${RUN}@example.de`;
const ANSWER_CONTENT = '550 5.7.1 Message rejected as spam by Content Filtering.';

let t: TestContext;
let workers: PeerWorkers;
let peer: SmtpPeer;
let mailer: Mailer;
let admin: SignedIn;
/** Addresses the peer refuses for good from now on. */
const refusing = new Set<string>();
/** RCPT TO per address, and how many of the first ones the peer defers. */
const rcptCount = new Map<string, number>();
const deferFirst = new Map<string, number>();
/** Addresses whose messages the peer refuses at the end of DATA, as content. */
const refusingContent = new Set<string>();

beforeAll(async () => {
  t = await createTestContext();
  workers = await startWorkersWithPeer(
    t,
    (address) => {
      const n = (rcptCount.get(address) ?? 0) + 1;
      rcptCount.set(address, n);
      if (refusing.has(address)) return `550 5.1.1 <${address}>: Recipient address rejected: User unknown`;
      if (n <= (deferFirst.get(address) ?? 0)) return '451 4.2.2 Mailbox full, try again later';
      return null;
    },
    (mail) => (mail.to.some((address) => refusingContent.has(address)) ? ANSWER_CONTENT : null),
  );
  ({ peer, mailer } = workers);
  admin = await t.signIn('admin', { firstName: 'Anna' });
}, 60_000);

afterAll(async () => {
  await workers?.close();
  await t?.close();
});

const em = () => t.orm.em.fork();
const mailsTo = (address: string) => peer.received.filter((mail) => mail.to.includes(address));
const mailsOf = async (vehicleId: string) => {
  const res = await admin.client.get(`/api/admin/vehicles/${vehicleId}/emails`);
  expect(res.status, res.text).toBe(200);
  return (res.data as VehicleMails).mails;
};
const logOf = (vehicleId: string, template: string) =>
  em().findOne(EmailLog, { vehicleId, template }, { orderBy: { createdAt: 'desc' } });
/** Waits until the vehicle's newest mail of the template has the state. */
const settled = (vehicleId: string, template: string, status: string) =>
  expect.poll(async () => (await logOf(vehicleId, template))?.status, { timeout: 15_000 }).toBe(status);
const outboxMailsOf = async (vehicleId: string) =>
  (
    await t.orm.em
      .getConnection()
      .execute<Array<{ n: number }>>(
        `select count(*)::int as n from outbox where job = 'email.send' and payload->>'vehicleId' = ?`,
        [vehicleId],
      )
  )[0]!.n;

describe('every mail’s fate', () => {
  it('a refused address: abgelehnt with the answer, later mails held, the owner told; after the correction one resend arrives', async () => {
    const owner = await signInConfirmed(t, { firstName: 'Jonas', email: REFUSED });
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });

    // The receipt goes through while the address still works.
    await settled(vehicle.id, 'application-received', 'sent');
    expect(mailsTo(REFUSED)).toHaveLength(1);

    // The mailbox is gone: the rejection is refused for good (not retried) and the address marked.
    refusing.add(REFUSED);
    await changeStatus(admin, vehicle.id, 'submitted', 'rejected');
    await settled(vehicle.id, 'application-rejected', 'refused');
    const refused = await logOf(vehicle.id, 'application-rejected');
    expect(refused).toMatchObject({ attempts: 1, lastError: ANSWER_550, recipient: REFUSED });
    expect(refused?.subject).toBe('Deine Bewerbung beim Schlosstreffen');
    expect(await em().findOne(MailBounce, { address: REFUSED })).toMatchObject({ reason: ANSWER_550 });
    expect(mailsTo(REFUSED)).toHaveLength(1);

    // The admin's dialog lists both mails with their fate.
    const listed = await mailsOf(vehicle.id);
    expect(listed.map((mail) => [mail.name, mail.state, mail.error])).toEqual([
      ['Absage', 'refused', ANSWER_550],
      ['Eingangsbestätigung', 'sent', null],
    ]);

    // A later mail to the address is held back: logged with the reason, never offered to the server.
    const rcptsBefore = rcptCount.get(REFUSED);
    await changeStatus(admin, vehicle.id, 'rejected', 'waitlist');
    await settled(vehicle.id, 'application-waitlist', 'held');
    expect(rcptCount.get(REFUSED)).toBe(rcptsBefore);
    expect((await mailsOf(vehicle.id))[0]).toMatchObject({
      name: 'Warteliste',
      state: 'held',
      error: ANSWER_550,
      resent: false,
    });

    // The owner's dashboard learns it in German; the server's answer stays with the staff.
    const user = (await owner.client.get('/api/auth/user')).data as CurrentUser;
    expect(user.mailBounced).toEqual({ address: REFUSED, since: expect.any(String) });
    expect(JSON.stringify(user)).not.toContain('Recipient address rejected');
    expect(mailBouncedNotice(user.mailBounced!.address)).toBe(
      `Die E-Mail an ${REFUSED} wurde vom Empfänger-Server abgelehnt. Bitte korrigieren Sie Ihre E-Mail-Adresse im Profil.`,
    );

    // Resending to the marked address is refused until the owner corrects it.
    const rejection = listed[0]!;
    const resendPath = `/api/admin/vehicles/${vehicle.id}/emails/${rejection.id}/resend`;
    const early = await admin.client.post(resendPath, {});
    expect(early.status).toBe(409);
    expect(early.data.message).toBe(MAIL_FATE_MESSAGES.resendBounced(REFUSED));

    // The owner corrects the address through the email change flow.
    const corrected = `korrigiert-${RUN}@example.de`;
    const change = await owner.client.patch('/api/auth/profile', {
      firstName: 'Jonas',
      lastName: 'Weber',
      email: corrected,
      currentPassword: PASSWORD,
    });
    expect(change.status, change.text).toBe(200);
    // The notice of the change to the old address is held back like every mail to it.
    await expect
      .poll(
        async () =>
          (await em().findOne(EmailLog, { recipient: REFUSED, template: 'email-change-notice' }))?.status,
        {
          timeout: 15_000,
        },
      )
      .toBe('held');
    const token = await mailedLinkToken(t, corrected, 'email-change-confirm');
    expect((await owner.client.post('/api/auth/confirm-email', { token })).status).toBe(200);
    expect(((await owner.client.get('/api/auth/user')).data as CurrentUser).mailBounced).toBeNull();
    expect(await em().count(MailBounce, { address: { $in: [REFUSED, corrected] } })).toBe(0);

    // 'Erneut senden': one mail to the new address; clicking again queues nothing.
    const queuedBefore = await outboxMailsOf(vehicle.id);
    const [first, second] = await Promise.all([
      admin.client.post(resendPath, {}),
      admin.client.post(resendPath, {}),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    expect([first, second].find((res) => res.status === 409)?.data.message).toBe(
      MAIL_FATE_MESSAGES.resendPending,
    );
    expect(await outboxMailsOf(vehicle.id)).toBe(queuedBefore + 1);

    const resendJobId = (await em().findOneOrFail(EmailLog, rejection.id)).resendJobId!;
    await expect
      .poll(async () => (await em().findOne(EmailLog, { jobId: resendJobId }))?.status, { timeout: 15_000 })
      .toBe('sent');
    const resend = await em().findOneOrFail(EmailLog, { jobId: resendJobId });
    const third = await admin.client.post(resendPath, {});
    expect(third.status).toBe(409);
    await sleep(500);
    const arrived = mailsTo(corrected).filter((mail) =>
      mail.data.includes(`<${resend.jobId}@schlosstreffen>`),
    );
    expect(arrived).toHaveLength(1);
    // Besides the resend, the new address got only its confirmation link.
    expect(mailsTo(corrected)).toHaveLength(2);
    expect(await outboxMailsOf(vehicle.id)).toBe(queuedBefore + 1);

    const after = await mailsOf(vehicle.id);
    expect(after[0]).toMatchObject({ name: 'Absage', state: 'sent', recipient: corrected });
    expect(after.find((mail) => mail.id === rejection.id)).toMatchObject({ state: 'refused', resent: true });
  });

  it('a message refused at DATA for its content: abgelehnt with the answer, the address not marked', async () => {
    const owner = await signInConfirmed(t, { firstName: 'Ida', email: CONTENT });
    refusingContent.add(CONTENT);
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });

    await settled(vehicle.id, 'application-received', 'refused');
    expect(await logOf(vehicle.id, 'application-received')).toMatchObject({
      attempts: 1,
      lastError: ANSWER_CONTENT,
    });
    expect(await em().count(MailBounce, { address: CONTENT })).toBe(0);
    expect((await mailsOf(vehicle.id))[0]).toMatchObject({ state: 'refused', error: ANSWER_CONTENT });
    expect(((await owner.client.get('/api/auth/user')).data as CurrentUser).mailBounced).toBeNull();

    // The next mail is offered to the server again, and arrives.
    refusingContent.delete(CONTENT);
    await changeStatus(admin, vehicle.id, 'submitted', 'waitlist');
    await settled(vehicle.id, 'application-waitlist', 'sent');
    expect(mailsTo(CONTENT)).toHaveLength(1);
  });

  it('a deferred mail (451) is retried and then accepted', async () => {
    deferFirst.set(DEFERRED, 1);
    const owner = await signInConfirmed(t, { firstName: 'Mia', email: DEFERRED });
    const vehicle = await createVehicle(owner.client, { status: 'submitted' });

    await settled(vehicle.id, 'application-received', 'deferred');
    expect((await mailsOf(vehicle.id))[0]).toMatchObject({
      state: 'deferred',
      attempts: 1,
      error: '451 4.2.2 Mailbox full, try again later',
    });
    expect(mailsTo(DEFERRED)).toHaveLength(0);

    await settled(vehicle.id, 'application-received', 'sent');
    expect((await mailsOf(vehicle.id))[0]).toMatchObject({ state: 'sent', attempts: 2, error: null });
    expect(mailsTo(DEFERRED)).toHaveLength(1);
    expect(await em().count(MailBounce, { address: DEFERRED })).toBe(0);
  });

  it('a mail still deferred at its last attempt counts as failed, with the last answer', async () => {
    const address = `immer-voll-${RUN}@example.de`;
    deferFirst.set(address, 1_000);
    const owner = await insertConfirmedUser(t, { email: address });
    const send = createSendEmail({
      em: t.orm.em,
      mailer,
      secret: t.config.sessionSecret,
      event: eventFacts(t.config.event),
      site: { publicUrl: t.config.publicUrl },
    });
    const mail = {
      template: 'password-changed' as const,
      to: owner.email,
      props: { firstName: 'Lena' },
    };
    const job = (lastAttempt: boolean) => ({
      id: `voll-${RUN}`,
      updateProgress: async () => undefined,
      lastAttempt,
    });
    await expect(send(mail, job(false))).rejects.toMatchObject({ responseCode: 451 });
    expect(await em().findOne(EmailLog, { jobId: `voll-${RUN}` })).toMatchObject({
      status: 'deferred',
      attempts: 1,
    });
    await expect(send(mail, job(true))).rejects.toMatchObject({ responseCode: 451 });
    expect(await em().findOne(EmailLog, { jobId: `voll-${RUN}` })).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastError: '451 4.2.2 Mailbox full, try again later',
    });
    expect(mailsTo(address)).toHaveLength(0);
  });
});

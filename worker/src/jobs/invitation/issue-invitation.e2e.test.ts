import { EmailLog, Invitation, Vehicle } from '@schlosstreffen/api/core';
import {
  APPLYING_NOON,
  createTestContext,
  EVENT_DAY_NOON,
  signInConfirmed,
  testClock,
  type TestClient,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '@schlosstreffen/api/testing';
import { listMails, mailAttachment, waitForMail, type CaughtMail } from '@schlosstreffen/infra/dev-services';
import { eventFacts, INVITATION_MESSAGES } from '@schlosstreffen/shared';
import type { Job } from 'bullmq';
import jsqrModule from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { createSendEmail } from '../email/send-email.js';
import { dispatch } from '../dispatch.js';
import { createIssueInvitation } from './issue-invitation.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import type { RunningWorkers } from '../../worker.js';

// A webpack CommonJS build: the function is the default export or the module itself, by loader.
const jsQR = ((jsqrModule as { default?: unknown }).default ?? jsqrModule) as typeof jsqrModule.default;

let t: TestContext;
let running: RunningWorkers | undefined;
let mailer: Mailer;
let admin: TestClient;
let reviewer: TestClient;

async function staff(role: 'admin' | 'reviewer', firstName: string): Promise<TestClient> {
  return (await t.signIn(role, { firstName })).client;
}

const clock = testClock(EVENT_DAY_NOON);

beforeAll(async () => {
  // The gate takes scans on the event day only: the api's clock stands there.
  t = await createTestContext({ now: clock.now });
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer });
  admin = await staff('admin', 'Anna');
  reviewer = await staff('reviewer', 'Rita');
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  await t?.close();
});

async function submittedVehicle(firstName: string) {
  const { client: owner, email } = await signInConfirmed(t, { firstName, lastName: 'Krause' });
  // Applied for while the applications were open.
  const created = await clock.during(APPLYING_NOON, () =>
    owner.post('/api/vehicles', {
      brand: 'Lancia',
      model: 'Delta Integrale',
      name: 'Giallo',
      year: 1992,
      ps: 215,
      weightKg: 1340,
      topSpeedKmh: 220,
      zeroToHundredS: 5.7,
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    }),
  );
  expect(created.status).toBe(201);
  return { owner, email, id: created.data.id as string };
}

/** The invitation job's handler, run by hand as a retry or an early delivery would run it. */
const invitationProcessor = () =>
  dispatch({
    'invitation.issue': createIssueInvitation({
      em: t.orm.em,
      event: t.event,
      publicUrl: t.config.publicUrl,
      secret: t.config.sessionSecret,
      onOutbox: () => t.relay.wake(),
    }),
  });

const INVITATION_SUBJECT = /^Deine Einladung zum Schlosstreffen – Startnummer \d+$/;
const invitationMailsTo = async (email: string) =>
  (await listMails(t.services.mailWebUrl)).filter(
    (mail) => mail.to.some((to) => to.address === email) && INVITATION_SUBJECT.test(mail.subject),
  );

/** Decodes the QR code image attached to an invitation mail. */
async function decodeQr(mail: CaughtMail): Promise<string> {
  const attachment = mail.attachments?.find((file) => file.contentType === 'image/png');
  expect(attachment?.contentId).toBe('checkin-qr@schlosstreffen');
  expect(mail.html).toContain('src="cid:checkin-qr@schlosstreffen"');
  const png = await mailAttachment(t.services.mailWebUrl, mail.id, attachment!.generatedFileName);
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const decoded = jsQR(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
  );
  expect(decoded).not.toBeNull();
  return decoded!.data;
}

describe('invitation mail, confirmation and check-in', () => {
  it('the confirm link confirms; then the mailed QR code checks the car in once', async () => {
    const { email, id } = await submittedVehicle('Greta');
    const change = await reviewer.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'invited',
      oldStatus: 'submitted',
      comment: 'GEHEIME-NOTIZ',
    });
    expect(change.status).toBe(200);

    const mail = await waitForMail(
      t.services.mailWebUrl,
      (m) => m.to.some((to) => to.address === email) && INVITATION_SUBJECT.test(m.subject),
      15_000,
    );
    const invitation = await t.orm.em.fork().findOneOrFail(Invitation, { vehicle: id });
    expect(mail.subject).toBe(`Deine Einladung zum Schlosstreffen – Startnummer ${invitation.startNumber}`);
    const body = `${mail.html}\n${mail.text}`;
    for (const fact of [
      'Hallo Greta,',
      '„Giallo“',
      String(invitation.startNumber),
      `Parkzone`,
      invitation.parkingZone,
      'Samstag, 20. Juni 2026',
      '10:00 – 20:00 Uhr',
      'Schlosspark, Sachsen',
      'Teilnahme bestätigen',
    ]) {
      expect(body).toContain(fact);
    }
    expect(body).not.toContain('GEHEIME-NOTIZ');

    const code = await decodeQr(mail);
    expect(code).toBe(invitation.qrCode);
    expect(Buffer.from(code, 'base64url').length * 8).toBeGreaterThanOrEqual(128);

    // Unconfirmed, the gate does not let the car in.
    const early = await reviewer.post('/api/admin/check-in', { code });
    expect(early.status).toBe(409);
    expect(early.data.result).toBe('not_confirmed');

    // The confirm link leads to the page that posts its token.
    const link = /href="([^"]*\/einladung\?token=[^"]+)"/
      .exec(mail.html ?? '')?.[1]
      ?.replaceAll('&amp;', '&');
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.origin + url.pathname).toBe(`${t.config.publicUrl}/einladung`);
    const confirmed = await t
      .client()
      .post('/api/invitations/confirm', { token: url.searchParams.get('token') });
    expect(confirmed.data).toEqual({
      status: 'confirmed',
      message: INVITATION_MESSAGES.confirmed,
      vehicleId: id,
    });
    await waitForMail(
      t.services.mailWebUrl,
      (m) => m.to.some((to) => to.address === email) && m.subject.startsWith('Deine Teilnahme ist bestätigt'),
      15_000,
    );

    const first = await reviewer.post('/api/admin/check-in', { code });
    expect(first.status, first.text).toBe(200);
    expect(first.data).toMatchObject({ result: 'checked_in', startNumber: invitation.startNumber });
    const second = await admin.post('/api/admin/check-in', { code });
    expect(second.status).toBe(409);
    expect(second.data.message).toMatch(/^Bereits eingecheckt um \d\d:\d\d Uhr$/);
    expect(second.data.checkedInAt).toBe(first.data.checkedInAt);
  });

  it('invited again after the waitlist: a new start number, zone and code; the first number stays retired', async () => {
    const { email, id } = await submittedVehicle('Hanna');
    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'invited', oldStatus: 'submitted' });
    await waitForMail(
      t.services.mailWebUrl,
      (m) => m.to.some((to) => to.address === email) && INVITATION_SUBJECT.test(m.subject),
      15_000,
    );
    const first = await t.orm.em.fork().findOneOrFail(Invitation, { vehicle: id });

    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'waitlist', oldStatus: 'invited' });
    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'invited', oldStatus: 'waitlist' });
    await expect.poll(async () => (await invitationMailsTo(email)).length, { timeout: 15_000 }).toBe(2);

    const rows = await t.orm.em.fork().find(Invitation, { vehicle: id });
    expect(rows).toHaveLength(1);
    const again = rows[0]!;
    expect(again.startNumber).toBeGreaterThan(first.startNumber);
    expect(again.qrCode).not.toBe(first.qrCode);
    expect(again.releasedAt).toBeNull();
    const codes = await Promise.all((await invitationMailsTo(email)).map((mail) => decodeQr(mail)));
    expect(codes.sort()).toEqual([first.qrCode, again.qrCode].sort());
  });

  it('sends one mail when the invitation job and its mail job are retried', async () => {
    const { email, id } = await submittedVehicle('Ida');
    // Invite without the queue: the job is run by hand below, twice, as a retry would.
    await t.orm.em.fork().nativeUpdate(Vehicle, { id }, { status: 'invited' });
    const processor = invitationProcessor();
    const job = { id: `retry-${id}`, name: 'invitation.issue', data: { vehicleId: id } } as Job;
    const once = (await processor(job)) as { mailJobId: string; startNumber: number };
    const twice = await processor(job);
    expect(once).toMatchObject({ status: 'issued', mailJobId: expect.any(String) });
    expect(twice).toMatchObject({
      status: 'kept',
      startNumber: once.startNumber,
      mailJobId: once.mailJobId,
    });

    await expect.poll(async () => (await invitationMailsTo(email)).length, { timeout: 15_000 }).toBe(1);
    // The mail job itself delivered again (e.g. after a crash before it was marked done).
    const mailJob = await t.queues.email.getJob(once.mailJobId);
    const send = dispatch({
      'email.send': createSendEmail({
        em: t.orm.em,
        mailer,
        secret: t.config.sessionSecret,
        event: eventFacts(t.config.event),
        site: { publicUrl: t.config.publicUrl },
      }),
    });
    expect(await send(mailJob!)).toEqual({ status: 'skipped' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await invitationMailsTo(email)).toHaveLength(1);
    const logs = await t.orm.em.fork().find(EmailLog, { recipient: email, template: 'invitation' });
    expect(logs.map((log) => [log.jobId, log.status])).toEqual([[once.mailJobId, 'sent']]);
  });

  it('gives a vehicle confirmed before its job ran its invitation and mail; a rejected one none', async () => {
    const { email, id } = await submittedVehicle('Jana');
    const rejected = await submittedVehicle('Karl');
    // The owner accepted on the dashboard before the worker came to the job.
    await t.orm.em.fork().nativeUpdate(Vehicle, { id }, { status: 'confirmed' });
    await t.orm.em.fork().nativeUpdate(Vehicle, { id: rejected.id }, { status: 'rejected' });
    const processor = invitationProcessor();
    const run = (vehicleId: string) =>
      processor({ id: `early-${vehicleId}`, name: 'invitation.issue', data: { vehicleId } } as Job);
    expect(await run(id)).toMatchObject({ status: 'issued' });
    expect(await run(rejected.id)).toMatchObject({ status: 'skipped' });

    const invitation = await t.orm.em.fork().findOneOrFail(Invitation, { vehicle: id });
    await expect.poll(async () => (await invitationMailsTo(email)).length, { timeout: 15_000 }).toBe(1);
    expect(await decodeQr((await invitationMailsTo(email))[0]!)).toBe(invitation.qrCode);
    expect(await t.orm.em.fork().count(Invitation, { vehicle: rejected.id })).toBe(0);
  });
});

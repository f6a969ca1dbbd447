import { randomUUID } from 'node:crypto';
import type { VehicleStatus } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { Payment } from '../../core/model/payment.entity.js';
import { Review } from '../../core/model/review.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { runDueWork } from '../../core/scheduler.js';
import {
  createTestContext,
  insertBankLine,
  SUBMISSION_CONSENTS,
  TEST_FEE,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';

/**
 * The fee's deadline at set moments (`scheduler:tick --as-of`): a reminder 3 days before it to
 * whoever has not paid, and at it an unpaid car is released like an unconfirmed one (status log,
 * mail), the waitlist moves up into its place, and a second tick changes nothing.
 */
const ENV = {
  EVENT_START: '2027-06-19T08:00:00.000Z',
  EVENT_END: '2027-06-20T16:00:00.000Z',
  PARKING_ZONES: 'A:2',
  INVITATION_CONFIRM_DAYS: '14',
  INVITATION_CUTOFF_DAYS: '14',
  INVITATION_REMINDER_DAYS: '3',
  RATE_LIMIT_FACTOR: '50',
};
const DAY = 24 * 3600 * 1000;
const T0 = new Date('2027-01-10T10:00:00.000Z');

let t: TestContext;
let admin: SignedIn;
const em = () => t.orm.em.fork();

beforeAll(async () => {
  t = await createTestContext({ relay: false, env: ENV });
  admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
  const res = await admin.client.patch(`/api/admin/editions/${t.event.edition.year}`, { fee: TEST_FEE });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => t?.close());

async function applicant(status: VehicleStatus, score: number) {
  const owner = await t.signIn('user', { firstName: 'Olga', lastName: `Owner ${randomUUID().slice(0, 4)}` });
  const created = await owner.client.post('/api/vehicles', {
    brand: 'Porsche',
    model: `911 ${randomUUID().slice(0, 6)}`,
    year: 1995,
    ps: 300,
    weightKg: 1400,
    topSpeedKmh: 270,
    zeroToHundredS: 5,
    status: 'submitted',
    ...SUBMISSION_CONSENTS,
  });
  expect(created.status, created.text).toBe(201);
  const id = created.data.id as string;
  const res = await admin.client.patch(`/api/admin/vehicles/${id}/status`, {
    status,
    oldStatus: 'submitted',
    score,
  });
  expect(res.status, res.text).toBe(200);
  return id;
}

const schedule = () => ({
  retention: t.config.retention,
  event: t.event,
  publicUrl: t.config.publicUrl,
  secret: t.config.sessionSecret,
});

async function runInvitationJobs(asOf: Date): Promise<void> {
  for (const row of await em().find(Outbox, { job: 'invitation.issue' })) {
    await issueInvitation(t.orm.em, (row.payload as { vehicleId: string }).vehicleId, {
      event: t.event,
      publicUrl: t.config.publicUrl,
      secret: t.config.sessionSecret,
      asOf,
      jobId: row.id,
    });
  }
  await em().nativeDelete(Outbox, { job: 'invitation.issue' });
}

const mails = async (template: string) =>
  (await em().find(Outbox, { job: 'email.send' })).filter(
    (row) => (row.payload as { template: string }).template === template,
  );
const paymentOf = async (vehicleId: string) =>
  em().findOneOrFail(Payment, {
    invitation: (await em().findOneOrFail(Invitation, { vehicle: vehicleId })).id,
  });

describe('the payment deadline (--as-of)', () => {
  it('reminds whoever has not paid, releases an unpaid car at its deadline, moves the waitlist up, once', async () => {
    const payer = await applicant('invited', 9);
    const silent = await applicant('invited', 7);
    const waiting = await applicant('waitlist', 8);
    await runInvitationJobs(T0);
    // Both owners accept at once: confirmed, with the fee still open.
    await em().nativeUpdate(Vehicle, { id: { $in: [payer, silent] } }, { status: 'confirmed' });
    const due = (await paymentOf(silent)).dueAt!;
    expect(due.getTime()).toBe(T0.getTime() + 19 * DAY);
    await insertBankLine(t, t.event.edition.id, {
      amountCents: 2500,
      paymentId: (await paymentOf(payer)).id,
    });

    const early = await runDueWork(t.orm.em, schedule(), new Date(due.getTime() - 4 * DAY));
    expect(early).toMatchObject({ paymentReminders: 0, unpaidReleased: [] });

    const reminded = await runDueWork(t.orm.em, schedule(), new Date(due.getTime() - 2 * DAY));
    expect(reminded.paymentReminders).toBe(1);
    const reminders = await mails('payment-reminder');
    expect(reminders).toHaveLength(1);
    expect((reminders[0]!.payload as { vehicleId: string }).vehicleId).toBe(silent);
    expect(
      (reminders[0]!.payload as { props: { openCents: number; payment: { reference: string } } }).props,
    ).toMatchObject({ openCents: 2500, payment: { reference: (await paymentOf(silent)).reference } });
    expect((await runDueWork(t.orm.em, schedule(), new Date(due.getTime() - DAY))).paymentReminders).toBe(0);

    const after = new Date(due.getTime() + 3600_000);
    const released = await runDueWork(t.orm.em, schedule(), after);
    expect(released.unpaidReleased).toEqual([silent]);
    expect((await em().findOneOrFail(Vehicle, silent)).status).toBe('rejected');
    expect((await em().findOneOrFail(Vehicle, payer)).status).toBe('confirmed');
    const log = await em().find(
      Review,
      { vehicleId: silent, actorRole: 'system' },
      { orderBy: { createdAt: 'desc' } },
    );
    expect(log[0]).toMatchObject({ oldStatus: 'confirmed', newStatus: 'rejected' });
    expect(log[0]?.commentInternal).toMatch(
      /^Startgeld nicht bis .* bezahlt \(offen: 25,00\s€\): Platz freigegeben/,
    );
    expect(await mails('payment-lapsed')).toHaveLength(1);
    expect(released.movedUp.invited.map((row) => row.vehicleId)).toEqual([waiting]);
    expect((await em().findOneOrFail(Vehicle, waiting)).status).toBe('invited');

    const again = await runDueWork(t.orm.em, schedule(), after);
    expect(again).toMatchObject({ paymentReminders: 0, unpaidReleased: [], movedUp: { invited: [] } });
    expect(await mails('payment-lapsed')).toHaveLength(1);
    expect(await mails('payment-reminder')).toHaveLength(1);
  });
});

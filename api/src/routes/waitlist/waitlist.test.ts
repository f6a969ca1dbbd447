import { randomUUID } from 'node:crypto';
import { INVITATION_MESSAGES, type VehicleStatus } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { User } from '../../core/model/user.entity.js';
import { unseal } from '../../core/crypto/seal.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { invitationDeclineUrl } from '../../core/invitations/invitation-links.js';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import type { PlacesOptions } from '../../core/invitations/places.js';
import { advanceWaitlist } from '../../core/invitations/waitlist.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { runDueWork } from '../../core/scheduler.js';
import { Review } from '../../core/model/review.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import {
  createTestContext,
  PASSWORD,
  type SignedIn,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';

/**
 * Deadlines, declines and moving up, against a future event (the configured one lies in the past):
 * event on 19 June 2027, 14 days to confirm, cut-off 14 days before the event, reminder 3 days
 * before the confirm-by date.
 */
const ENV = {
  EVENT_START: '2027-06-19T08:00:00.000Z',
  EVENT_END: '2027-06-20T16:00:00.000Z',
  PARKING_ZONES: 'A:2,B:1',
  INVITATION_CONFIRM_DAYS: '14',
  INVITATION_CUTOFF_DAYS: '14',
  INVITATION_REMINDER_DAYS: '3',
  RATE_LIMIT_FACTOR: '50',
};
const DAY = 24 * 3600 * 1000;
const T0 = new Date('2027-01-10T10:00:00.000Z');
const at = (days: number, hours = 0) => new Date(T0.getTime() + days * DAY + hours * 3600 * 1000);

let t: TestContext;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: false, env: ENV });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.resetRateLimits();
  // A tick in 2027 also runs retention, which ends the sessions of 2026: sign in anew.
  admin = await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' });
  // Each test starts from an empty field: no vehicle holds a place, no job waits.
  const em = t.orm.em.fork();
  await em.nativeDelete(Vehicle, {});
  await em.nativeDelete(Outbox, {});
  await em.getConnection().execute(`delete from setting`);
});

const em = () => t.orm.em.fork();
const places = (): PlacesOptions => ({
  event: t.event,
  publicUrl: t.config.publicUrl,
  secret: t.config.sessionSecret,
});

/** An owner with one vehicle brought to `status` by the admin (with a score), through the API. */
async function applicant(status: VehicleStatus, score?: number) {
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
  if (status !== 'submitted') {
    const res = await admin.client.patch(`/api/admin/vehicles/${id}/status`, {
      status,
      oldStatus: 'submitted',
      ...(score === undefined ? {} : { score }),
    });
    expect(res.status, res.text).toBe(200);
  }
  return { owner, id };
}

/** Runs the queued invitation jobs as the worker would, each issued at `asOf`. */
async function runInvitationJobs(asOf: Date): Promise<void> {
  const rows = await em().find(Outbox, { job: 'invitation.issue' });
  for (const row of rows) {
    await issueInvitation(t.orm.em, (row.payload as { vehicleId: string }).vehicleId, {
      ...places(),
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
const movedUpMails = async () =>
  (await mails('invitation')).filter((row) => (row.payload as { props: { movedUp: boolean } }).props.movedUp);
const statusOf = async (id: string) => (await em().findOneOrFail(Vehicle, id)).status;
const invitationOf = (id: string) => em().findOneOrFail(Invitation, { vehicle: id });
const systemRows = (id: string) =>
  em().find(Review, { vehicleId: id, actorRole: 'system' }, { orderBy: { createdAt: 'asc' } });

describe('scheduler:tick --as-of: reminders, lapses, moving up', () => {
  it('reminds at the right time, lapses after the deadline, moves the best-ranked up, and a second tick changes nothing', async () => {
    const confirmed = await applicant('invited');
    const silentA = await applicant('invited');
    const silentB = await applicant('invited');
    await runInvitationJobs(T0);
    const early = await applicant('waitlist', 3);
    const best = await applicant('waitlist', 8);
    const unscored = await applicant('waitlist');
    // Zone A holds two places, B one: the three invited fill them.
    const zonesTaken = [confirmed, silentA, silentB].map(
      async ({ id }) => (await invitationOf(id)).parkingZone,
    );
    expect((await Promise.all(zonesTaken)).sort()).toEqual(['A', 'A', 'B']);
    const deadline = (await invitationOf(silentA.id)).confirmBy!;
    expect(deadline.toISOString()).toBe(at(14).toISOString());
    const res = await confirmed.owner.client.patch(`/api/vehicles/${confirmed.id}`, { status: 'confirmed' });
    expect(res.status, res.text).toBe(200);

    // The day before the reminder: nothing is due.
    const quiet = await runDueWork(t.orm.em, schedule(), at(10));
    expect(quiet).toMatchObject({ reminders: 0, lapsed: [], movedUp: { invited: [] } });
    expect(await mails('invitation-reminder')).toHaveLength(0);

    // Three days before the deadline: one reminder per unconfirmed invitation, with its links.
    const reminded = await runDueWork(t.orm.em, schedule(), at(11, 1));
    expect(reminded.reminders).toBe(2);
    const reminders = await mails('invitation-reminder');
    expect(reminders.map((row) => (row.payload as { props: { confirmBy: string } }).props.confirmBy)).toEqual(
      [deadline.toISOString(), deadline.toISOString()],
    );
    const links = unseal<{ confirmUrl: string; declineUrl: string }>(
      t.config.sessionSecret,
      (reminders[0]!.payload as { sealed: string }).sealed,
    );
    expect(links.declineUrl).toContain('/einladung/absagen?token=');
    expect((await runDueWork(t.orm.em, schedule(), at(11, 2))).reminders).toBe(0);
    expect(await mails('invitation-reminder')).toHaveLength(2);

    // Past the deadline: both silent invitations lapse, the two best-ranked move up into A and B.
    const numbersBefore = [
      (await invitationOf(silentA.id)).startNumber,
      (await invitationOf(silentB.id)).startNumber,
    ];
    const report = await runDueWork(t.orm.em, schedule(), at(14, 1));
    expect(report.lapsed.sort()).toEqual([silentA.id, silentB.id].sort());
    expect(report.movedUp.invited.map((row) => row.vehicleId)).toEqual([best.id, early.id]);
    expect(await statusOf(silentA.id)).toBe('rejected');
    expect(await statusOf(best.id)).toBe('invited');
    expect(await statusOf(early.id)).toBe('invited');
    expect(await statusOf(unscored.id)).toBe('waitlist');
    expect(await statusOf(confirmed.id)).toBe('confirmed');
    const moved = [await invitationOf(best.id), await invitationOf(early.id)];
    expect(moved.map((row) => row.parkingZone).sort()).toEqual(['A', 'B']);
    for (const row of moved) {
      // New numbers, never one given before; the confirm-by date runs from the tick's moment.
      expect(row.startNumber).toBeGreaterThan(Math.max(...numbersBefore));
      expect(row.issuedAt.toISOString()).toBe(at(14, 1).toISOString());
      expect(row.confirmBy!.toISOString()).toBe(at(28, 1).toISOString());
    }
    expect((await invitationOf(silentA.id)).releaseReason).toBe('lapsed');
    expect((await invitationOf(silentA.id)).startNumber).toBe(numbersBefore[0]);
    expect(await mails('invitation-lapsed')).toHaveLength(2);
    expect(await movedUpMails()).toHaveLength(2);
    const [lapseRow] = await systemRows(silentA.id);
    expect(lapseRow).toMatchObject({ oldStatus: 'invited', newStatus: 'rejected', actorName: 'System' });
    expect(lapseRow!.commentInternal).toContain('nicht bis');
    const [moveRow] = await systemRows(best.id);
    expect(moveRow).toMatchObject({ oldStatus: 'waitlist', newStatus: 'invited' });
    expect(moveRow!.commentInternal).toContain('Rang 1, Bewertung 8');

    // The owner sees why the place went (signed in again: the tick's retention ended 2026's sessions).
    const client = t.client();
    expect(
      (await client.post('/api/auth/login', { email: silentA.owner.email, password: PASSWORD })).status,
    ).toBe(200);
    const own = await client.get('/api/vehicles');
    expect(own.data[0].invitation).toMatchObject({
      releaseReason: 'lapsed',
      confirmBy: deadline.toISOString(),
    });

    // The same moment again: nothing more.
    const again = await runDueWork(t.orm.em, schedule(), at(14, 1));
    expect(again).toMatchObject({ reminders: 0, lapsed: [], movedUp: { invited: [], free: 0 } });
    expect(await mails('invitation-lapsed')).toHaveLength(2);
    expect(await movedUpMails()).toHaveLength(2);
    expect(await em().count(Review, { actorRole: 'system' })).toBe(4);
  });

  it('stops moving up at the cut-off before the event', async () => {
    const held = await applicant('invited');
    await runInvitationJobs(T0);
    await applicant('waitlist', 5);
    await admin.client.patch(`/api/admin/vehicles/${held.id}/status`, {
      status: 'rejected',
      oldStatus: 'invited',
    });
    const cutoff = new Date('2027-06-05T08:00:00.000Z');
    const report = await runDueWork(t.orm.em, schedule(), cutoff);
    expect(report.movedUp).toMatchObject({ invited: [], stopped: 'cutoff' });
    expect((await invitationOf(held.id)).releaseReason).toBe('revoked');
  });
});

const schedule = () => ({
  retention: t.config.retention,
  event: t.event,
  publicUrl: t.config.publicUrl,
  secret: t.config.sessionSecret,
});

describe('declines', () => {
  it('the mail link declines once, without signing in; an older link or a forged one does nothing', async () => {
    const { id } = await applicant('invited');
    await runInvitationJobs(new Date());
    const invitation = await invitationOf(id);
    const mail = (await mails('invitation'))[0]!;
    const sealed = unseal<{ declineUrl: string }>(
      t.config.sessionSecret,
      (mail.payload as { sealed: string }).sealed,
    );
    const token = new URL(sealed.declineUrl).searchParams.get('token')!;
    const anon = t.client();

    expect((await anon.post('/api/invitations/decline', { token: `${token}x` })).status).toBe(404);
    const first = await anon.post('/api/invitations/decline', { token });
    expect(first.status, first.text).toBe(200);
    expect(first.data).toEqual({ status: 'declined', message: INVITATION_MESSAGES.declined });
    expect(await statusOf(id)).toBe('rejected');
    expect((await anon.post('/api/invitations/decline', { token })).data.status).toBe('already_declined');
    expect(await mails('invitation-declined')).toHaveLength(1);
    expect(await em().count(Outbox, { job: 'waitlist.advance' })).toBe(1);
    const [row] = await systemRows(id);
    expect(row!.commentInternal).toContain('über den Link in der Einladung');

    // Invited again later: a new number and a new link; the old link no longer names this place.
    await admin.client.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'invited',
      oldStatus: 'rejected',
    });
    await runInvitationJobs(new Date());
    const again = await invitationOf(id);
    expect(again.startNumber).toBeGreaterThan(invitation.startNumber);
    expect(again.releasedAt).toBeNull();
    const stale = await anon.post('/api/invitations/decline', { token });
    expect(stale.status).toBe(404);
    expect(stale.data.message).toBe(INVITATION_MESSAGES.declineLinkInvalid);
    expect(await statusOf(id)).toBe('invited');
  });

  it('the confirm link of an earlier invitation does not confirm the place issued again later', async () => {
    const { owner, id } = await applicant('invited');
    await runInvitationJobs(new Date());
    const linkOf = (mail: Outbox) =>
      unseal<{ confirmUrl: string }>(t.config.sessionSecret, (mail.payload as { sealed: string }).sealed)
        .confirmUrl;
    const oldToken = new URL(linkOf((await mails('invitation'))[0]!)).searchParams.get('token')!;
    expect((await owner.client.post(`/api/vehicles/${id}/decline`, {})).status).toBe(200);
    await em().nativeDelete(Outbox, { job: 'email.send' });

    // Invited again later: the old mail's confirm link belongs to the place given up before.
    await admin.client.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'invited',
      oldStatus: 'rejected',
    });
    await runInvitationJobs(new Date(Date.now() + 60_000));
    const anon = t.client();
    const stale = await anon.post('/api/invitations/confirm', { token: oldToken });
    expect(stale.status).toBe(409);
    expect(stale.data.message).toBe(INVITATION_MESSAGES.confirmLinkSuperseded);
    expect(await statusOf(id)).toBe('invited');

    const newToken = new URL(linkOf((await mails('invitation'))[0]!)).searchParams.get('token')!;
    expect(newToken).not.toBe(oldToken);
    const confirmed = await anon.post('/api/invitations/confirm', { token: newToken });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await statusOf(id)).toBe('confirmed');
  });

  it('the dashboard declines a confirmed place; confirming after the deadline is refused', async () => {
    const { owner, id } = await applicant('invited');
    await runInvitationJobs(new Date());
    const late = await applicant('invited');
    // Issued long ago: its deadline has passed, the tick has not run yet.
    await runInvitationJobs(new Date(Date.now() - 30 * DAY));
    const refused = await late.owner.client.patch(`/api/vehicles/${late.id}`, { status: 'confirmed' });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe(INVITATION_MESSAGES.confirmDeadlinePassed);

    await owner.client.patch(`/api/vehicles/${id}`, { status: 'confirmed' });
    const res = await owner.client.post(`/api/vehicles/${id}/decline`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.data.vehicle).toMatchObject({ status: 'rejected', invitation: { releaseReason: 'declined' } });
    const [row] = await em().find(Review, { vehicleId: id, newStatus: 'rejected' });
    expect(row).toMatchObject({ actorRole: 'user', oldStatus: 'confirmed' });
    expect((await owner.client.post(`/api/vehicles/${id}/decline`, {})).data.status).toBe('already_declined');
  });
});

describe('moving up', () => {
  it('20 simultaneous declines with 5 places freed in a zone and 30 waitlisted: exactly 5 invitations, no zone over capacity', async () => {
    // Zone A (5) and B (10) full; 5 owners in A decline, each four times at once (dashboard and link).
    const zones = [
      { name: 'A', capacity: 5 },
      { name: 'B', capacity: 10 },
    ];
    const options = { ...places(), event: { ...t.event, parkingZones: zones } };
    const holders = [];
    for (let i = 0; i < 15; i += 1) holders.push(await applicant('invited'));
    for (const holder of holders) {
      await issueInvitation(t.orm.em, holder.id, { ...options, asOf: T0, jobId: randomUUID() });
    }
    await em().nativeDelete(Outbox, {});
    const waitlisted = [];
    for (let i = 0; i < 30; i += 1) waitlisted.push(await insertWaitlisted(i % 10));
    const inA = [];
    for (const holder of holders) if ((await invitationOf(holder.id)).parkingZone === 'A') inA.push(holder);
    expect(inA).toHaveLength(5);

    const anon = t.client();
    const requests = inA.flatMap(({ owner, id }) => {
      const link = async () => {
        const invitation = await invitationOf(id);
        const token = new URL(
          invitationDeclineUrl(t.config.publicUrl, t.config.sessionSecret, invitation),
        ).searchParams.get('token');
        return anon.post('/api/invitations/decline', { token });
      };
      return [
        () => owner.client.post(`/api/vehicles/${id}/decline`, {}),
        () => owner.client.post(`/api/vehicles/${id}/decline`, {}),
        link,
        link,
      ];
    });
    expect(requests).toHaveLength(20);
    const answers = await Promise.all(requests.map((send) => send()));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((res) => res.data.status === 'declined')).toHaveLength(5);

    // Every decline queued a moving-up job; the worker runs them at once, plus a few redeliveries.
    const jobs = await em().find(Outbox, { job: 'waitlist.advance' });
    expect(jobs).toHaveLength(5);
    const runs = await Promise.all(
      [...jobs, ...jobs, ...jobs].map(() => advanceWaitlist(t.orm.em, options, at(1))),
    );
    expect(runs.flatMap((run) => run.invited)).toHaveLength(5);

    const vehicles = await em().find(Vehicle, { id: { $in: waitlisted } });
    const invited = vehicles.filter((vehicle) => vehicle.status === 'invited');
    expect(invited).toHaveLength(5);
    // The best-ranked five: scores 9, 9, 9, 8, 8 (three vehicles per score).
    const scores = await Promise.all(
      invited.map(
        async (vehicle) =>
          (await em().findOneOrFail(Review, { vehicleId: vehicle.id, score: { $ne: null } })).score,
      ),
    );
    expect(scores.sort()).toEqual([8, 8, 9, 9, 9]);
    const taken = await em()
      .getConnection()
      .execute<Array<{ zone: string; n: string }>>(
        `select i.parking_zone as zone, count(*) as n from invitation i join vehicle v on v.id = i.vehicle_id
          where v.status in ('invited', 'confirmed') and i.released_at is null group by 1 order by 1`,
      );
    expect(taken.map((row) => [row.zone, Number(row.n)])).toEqual([
      ['A', 5],
      ['B', 10],
    ]);
    for (const { id } of inA)
      expect(await em().count(Review, { vehicleId: id, newStatus: 'rejected' })).toBe(1);
  });

  it('switched off: nothing moves, the admin sees the Nachrücker and invites with one click; switched on, free places fill', async () => {
    const held = await applicant('invited');
    const other = await applicant('invited');
    await runInvitationJobs(T0);
    const first = await applicant('waitlist', 9);
    const second = await applicant('waitlist', 4);
    const off = await admin.client.put('/api/admin/waitlist/settings', { autoMoveUp: false });
    expect(off.status, off.text).toBe(200);
    await admin.client.patch(`/api/admin/vehicles/${held.id}/status`, {
      status: 'rejected',
      oldStatus: 'invited',
    });
    await admin.client.patch(`/api/admin/vehicles/${other.id}/status`, {
      status: 'waitlist',
      oldStatus: 'invited',
    });
    const report = await advanceWaitlist(t.orm.em, places(), at(1));
    expect(report).toMatchObject({ invited: [], stopped: 'manual', free: 3, pending: 2 });

    const view = await admin.client.get('/api/admin/waitlist');
    expect(view.data).toMatchObject({ autoMoveUp: false, free: 3, pending: 2 });
    expect(view.data.candidates.map((row: { vehicle: { id: string } }) => row.vehicle.id)).toEqual([
      first.id,
      second.id,
      other.id,
    ]);
    const invited = await admin.client.post('/api/admin/waitlist/invite', { vehicleId: first.id });
    expect(invited.status, invited.text).toBe(201);
    expect(await statusOf(first.id)).toBe('invited');
    expect(await movedUpMails()).toHaveLength(1);
    expect((await admin.client.post('/api/admin/waitlist/invite', { vehicleId: first.id })).status).toBe(409);

    // Switched on: the one given-up place not passed on yet goes to the next in line.
    const on = await admin.client.put('/api/admin/waitlist/settings', { autoMoveUp: true });
    expect(on.data).toMatchObject({ autoMoveUp: true, free: 1, pending: 0 });
    expect(await statusOf(second.id)).toBe('invited');
    expect(await statusOf(other.id)).toBe('waitlist');
    // A place free for no release (never given) is the admin's to give, with a click; then none is left.
    const click = await admin.client.post('/api/admin/waitlist/invite', { vehicleId: other.id });
    expect(click.status, click.text).toBe(201);
    const late = await applicant('waitlist', 10);
    const full = await admin.client.post('/api/admin/waitlist/invite', { vehicleId: late.id });
    expect(full.status).toBe(409);
    expect((await advanceWaitlist(t.orm.em, places(), at(2))).invited).toEqual([]);
  });
});

describe('a vehicle sent back to the waitlist', () => {
  it('does not take over its own place; the next in line does', async () => {
    const back = await applicant('invited');
    await runInvitationJobs(T0);
    await admin.client.patch(`/api/admin/vehicles/${back.id}/status`, {
      status: 'waitlist',
      oldStatus: 'invited',
      score: 10,
    });
    expect((await advanceWaitlist(t.orm.em, places(), at(1))).invited).toEqual([]);
    expect(await statusOf(back.id)).toBe('waitlist');
    const next = await applicant('waitlist', 2);
    const report = await advanceWaitlist(t.orm.em, places(), at(2));
    expect(report.invited.map((row) => row.vehicleId)).toEqual([next.id]);
    expect(await statusOf(back.id)).toBe('waitlist');
  });
});

/** A waitlisted vehicle with a reviewer's score, written straight into the tables. */
async function insertWaitlisted(score: number): Promise<string> {
  const fork = em();
  const owner = fork.getReference(User, admin.id);
  const vehicle = fork.create(Vehicle, {
    edition: t.event.edition.id,
    user: owner,
    title: 'Audi Quattro',
    brand: 'Audi',
    model: 'Quattro',
    year: 1984,
    ps: 306,
    weightKg: 1300,
    topSpeedKmh: 250,
    zeroToHundredS: 4.8,
    status: 'waitlist',
  });
  fork.create(Review, {
    vehicleId: vehicle.id,
    reviewerId: admin.id,
    actorRole: 'admin',
    actorName: null,
    score,
    oldStatus: 'submitted',
    newStatus: 'waitlist',
  });
  await fork.flush();
  return vehicle.id;
}

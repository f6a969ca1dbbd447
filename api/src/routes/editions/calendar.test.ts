/**
 * The year's cycle at set moments: before applications open, while they are open, after the
 * deadline, on the meeting day, after it, and once the next edition is current. At each the phase
 * function and the API agree on what an owner, a reviewer and an admin may do; from the end of the
 * meeting the record is frozen (409 in German, naming the edition), only an admin corrects it with a
 * reason (status log and audit log, and the look back follows), and a gate scan made during the
 * meeting is still taken when its device syncs later.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORRECTION_MESSAGES,
  EDITION_MESSAGES,
  editionPhaseAt,
  type EditionPhase,
  type StatusHistoryEntry,
} from '@schlosstreffen/shared';
import type { AdminEdition, LookBack } from '@schlosstreffen/shared/api';
import { createEdition, makeCurrent, openApplications } from '../../core/editions/editions.js';
import { invitationConfirmUrl, invitationDeclineUrl } from '../../core/invitations/invitation-links.js';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { AuditLog } from '../../core/model/audit-log.entity.js';
import { Consent } from '../../core/model/consent.entity.js';
import { Edition } from '../../core/model/edition.entity.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import {
  APPLYING_NOON,
  changeStatus,
  createTestContext,
  createVehicle,
  EVENT_DAY_NOON,
  insertImage,
  SUBMISSION_CONSENTS,
  testClock,
  type SignedIn,
  type TestContext,
} from '../../testing/index.js';

const MOMENTS = {
  /** Applications open on 1 December 2025, 09:00. */
  beforeOpening: new Date('2025-11-20T12:00:00+01:00'),
  open: APPLYING_NOON,
  /** The deadline was 31 March 2026. */
  afterDeadline: new Date('2026-04-15T12:00:00+02:00'),
  meetingDay: EVENT_DAY_NOON,
  /** The meeting ended on 20 June 2026, 20:00. */
  over: new Date('2026-06-21T12:00:00+02:00'),
  /** 2027 is current from 30 November 2026. */
  nextCurrent: new Date('2026-12-01T12:00:00+01:00'),
} as const;
type Moment = keyof typeof MOMENTS;

const PHASES: Record<Moment, EditionPhase> = {
  beforeOpening: 'scheduled',
  open: 'open',
  afterDeadline: 'closed',
  meetingDay: 'meetingDay',
  over: 'over',
  nextCurrent: 'archived',
};

const NAME = 'Schlosstreffen 2026';
const FROZEN_OWNER = EDITION_MESSAGES.frozenForOwner(NAME);
const FROZEN_STAFF = EDITION_MESSAGES.frozenForStaff(NAME);

const clock = testClock(APPLYING_NOON);
let t: TestContext;
let admin: SignedIn;
let reviewer: SignedIn;
let categories: string[];

const sql = (statement: string, params: unknown[] = []) =>
  t.orm.em.getConnection().execute(statement, params, 'run');

/** An application of `owner`, submitted while applications are open. */
async function submitted(owner: SignedIn, brand = 'BMW'): Promise<string> {
  return (await clock.during(MOMENTS.open, () => createVehicle(owner.client, { status: 'submitted', brand })))
    .id;
}

/** An application invited with its invitation issued (as the job would); the invitation. */
async function invited(owner: SignedIn): Promise<{ vehicleId: string; invitation: Invitation }> {
  const vehicleId = await submitted(owner);
  await clock.during(MOMENTS.open, () => changeStatus(admin, vehicleId, 'submitted', 'invited'));
  const issued = await issueInvitation(t.orm.em, vehicleId, {
    event: t.event,
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    jobId: randomUUID(),
  });
  return { vehicleId, invitation: issued!.invitation };
}

/** A confirmed car, through its owner's confirm link. */
async function confirmed(owner: SignedIn): Promise<{ vehicleId: string; invitation: Invitation }> {
  const car = await invited(owner);
  const token = new URL(
    invitationConfirmUrl(t.config.publicUrl, t.config.sessionSecret, car.invitation),
  ).searchParams.get('token');
  const res = await clock.during(MOMENTS.open, () => t.client().post('/api/invitations/confirm', { token }));
  expect(res.status, res.text).toBe(200);
  return car;
}

/** Makes the reviewer one of the application's reviewers. */
async function assignReviewer(vehicleId: string): Promise<void> {
  await sql(
    `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_by, assigned_at)
     select gen_random_uuid(), edition_id, id, ?, ?, now() from vehicle where id = ?
     on conflict do nothing`,
    [reviewer.id, admin.id, vehicleId],
  );
}

const scores = () => ({ scores: Object.fromEntries(categories.map((id) => [id, 8])) });
const history = async (vehicleId: string) =>
  (await admin.client.get(`/api/vehicles/${vehicleId}/reviews`)).data as StatusHistoryEntry[];
const lookBack = async () => {
  const res = await clock.during(MOMENTS.over, () => t.client().get('/api/editions/2026/look-back'));
  expect(res.status, res.text).toBe(200);
  return res.data as LookBack;
};

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now, env: { RATE_LIMIT_FACTOR: '1000' } });
  admin = await t.signIn('admin', { firstName: 'Anna' });
  reviewer = await t.signIn('reviewer', { firstName: 'Rolf' });
  // 2026's applications open on 1 December 2025; 2027 is created, opened and current from 30 November 2026.
  const open = await admin.client.post('/api/admin/editions/2026/open', { at: '2025-12-01T09:00:00+01:00' });
  expect(open.status, open.text).toBe(200);
  const em = t.orm.em.fork();
  await createEdition(em, { year: 2027 });
  await openApplications(em, 2027, new Date('2026-11-30T09:00:00+01:00'));
  await makeCurrent(em, 2027, new Date('2026-11-30T10:00:00+01:00'));
  categories = (
    (await admin.client.get('/api/admin/reviews/settings')).data.categories as Array<{ id: string }>
  ).map((category) => category.id);
});
afterAll(() => t?.close());

describe('the calendar at set moments', () => {
  it('names the phase of 2026 at each moment, in the function and on the admin editions page', async () => {
    const edition = await t.orm.em.fork().findOneOrFail(Edition, { year: 2026 });
    for (const [moment, at] of Object.entries(MOMENTS) as Array<[Moment, Date]>) {
      const superseded = at >= new Date('2026-11-30T10:00:00+01:00');
      const phase = editionPhaseAt(
        {
          applicationsOpenAt: edition.applicationsOpenAt,
          applicationDeadline: edition.applicationDeadline,
          startsAt: edition.startsAt,
          endsAt: edition.endsAt,
          superseded,
        },
        at,
      );
      expect([moment, phase]).toEqual([moment, PHASES[moment]]);
      const listed = await clock.during(at, () => admin.client.get('/api/admin/editions'));
      const row = (listed.data.editions as AdminEdition[]).find((item) => item.year === 2026)!;
      expect([moment, row.phase]).toEqual([moment, PHASES[moment]]);
    }
  });

  it('lets an owner, a reviewer and an admin act until the meeting ends, then only an admin corrects', async () => {
    const owner = await t.signIn('user', { firstName: 'Max' });
    type Probe =
      'edit' | 'withdraw' | 'photo' | 'decline' | 'review' | 'reviewerStatus' | 'adminStatus' | 'correct';
    const answers: Record<string, Record<Probe, number>> = {};
    for (const [moment, at] of Object.entries(MOMENTS) as Array<[Moment, Date]>) {
      // Fresh applications for each moment: every probe changes what it acts on.
      await sql(`delete from vehicle where user_id = ?`, [owner.id]);
      const made: string[] = [];
      for (let index = 0; index < 7; index += 1) made.push(await submitted(owner));
      const [edit, withdraw, photo, review, reviewerStatus, adminStatus, correct] = made;
      const decline = (await invited(owner)).vehicleId;
      const image = await insertImage(t, photo!);
      await assignReviewer(review!);
      const probes: Record<Probe, () => Promise<{ status: number }>> = {
        edit: () => owner.client.patch(`/api/vehicles/${edit}`, { color: 'Grün' }),
        withdraw: () => owner.client.patch(`/api/vehicles/${withdraw}`, { status: 'draft' }),
        photo: () =>
          owner.client.patch(`/api/vehicles/${photo}/media`, { updates: [{ id: image.id, isHero: true }] }),
        decline: () => owner.client.post(`/api/vehicles/${decline}/decline`, {}),
        review: () => reviewer.client.post(`/api/admin/vehicles/${review}/review`, scores()),
        reviewerStatus: () =>
          reviewer.client.patch(`/api/admin/vehicles/${reviewerStatus}/status`, {
            status: 'in_review',
            oldStatus: 'submitted',
          }),
        adminStatus: () =>
          admin.client.patch(`/api/admin/vehicles/${adminStatus}/status`, {
            status: 'waitlist',
            oldStatus: 'submitted',
          }),
        correct: () =>
          admin.client.post(`/api/admin/vehicles/${correct}/correction`, {
            status: 'rejected',
            reason: 'Die Bewerbung war unvollständig.',
          }),
      };
      answers[moment] = {} as Record<Probe, number>;
      for (const [probe, send] of Object.entries(probes) as Array<
        [Probe, () => Promise<{ status: number }>]
      >) {
        answers[moment][probe] = (await clock.during(at, send)).status;
      }
      // The owner's list names the edition's phase.
      const own = await clock.during(at, () => owner.client.get('/api/vehicles'));
      expect(own.data[0].edition).toEqual({ year: 2026, name: NAME, phase: PHASES[moment] });
    }
    const ahead = { edit: 200, withdraw: 200, photo: 200, decline: 200, review: 200 };
    const staffAhead = { reviewerStatus: 200, adminStatus: 200, correct: 409 };
    const frozen = { edit: 409, withdraw: 409, photo: 409, decline: 409, review: 409 };
    const staffFrozen = { reviewerStatus: 409, adminStatus: 409, correct: 200 };
    expect(answers).toEqual({
      beforeOpening: { ...ahead, ...staffAhead },
      open: { ...ahead, ...staffAhead },
      afterDeadline: { ...ahead, ...staffAhead },
      meetingDay: { ...ahead, ...staffAhead },
      over: { ...frozen, ...staffFrozen },
      nextCurrent: { ...frozen, ...staffFrozen },
    });
  });

  it('answers every change of the past record with 409 in German, naming the edition and why', async () => {
    const owner = await t.signIn('user', { firstName: 'Lena' });
    const draft = (await clock.during(MOMENTS.open, () => createVehicle(owner.client))).id;
    const car = await submitted(owner);
    const image = await insertImage(t, car);
    const place = await invited(owner);
    const links = (url: typeof invitationConfirmUrl) =>
      new URL(url(t.config.publicUrl, t.config.sessionSecret, place.invitation)).searchParams.get('token');
    const waiting = await submitted(owner);
    await clock.during(MOMENTS.open, () => changeStatus(admin, waiting, 'submitted', 'waitlist'));
    await assignReviewer(car);
    const settings = (await admin.client.get('/api/admin/reviews/settings')).data;

    const ownerRequests: Array<[string, () => Promise<{ status: number; data: { message?: string } }>]> = [
      ['edit', () => owner.client.patch(`/api/vehicles/${car}`, { ps: 999 })],
      ['withdraw', () => owner.client.patch(`/api/vehicles/${car}`, { status: 'draft' })],
      [
        'submit',
        () => owner.client.patch(`/api/vehicles/${draft}`, { status: 'submitted', ...SUBMISSION_CONSENTS }),
      ],
      [
        'photo added',
        () =>
          owner.client.post(`/api/vehicles/${car}/media`, { type: 'image', url: '/objects/uploads/x.jpg' }),
      ],
      [
        'photo edited',
        () => owner.client.patch(`/api/vehicles/${car}/media`, { updates: [{ id: image.id, cropX: 10 }] }),
      ],
      ['photo deleted', () => owner.client.delete(`/api/vehicles/${car}/media/${image.id}`)],
      ['decline', () => owner.client.post(`/api/vehicles/${place.vehicleId}/decline`, {})],
      [
        'decline link',
        () => t.client().post('/api/invitations/decline', { token: links(invitationDeclineUrl) }),
      ],
      [
        'confirm link',
        () => t.client().post('/api/invitations/confirm', { token: links(invitationConfirmUrl) }),
      ],
    ];
    const staffRequests: Array<[string, () => Promise<{ status: number; data: { message?: string } }>]> = [
      ['review', () => reviewer.client.post(`/api/admin/vehicles/${car}/review`, scores())],
      [
        'status',
        () =>
          reviewer.client.patch(`/api/admin/vehicles/${car}/status`, {
            status: 'rejected',
            oldStatus: 'submitted',
          }),
      ],
      ['admin edit', () => admin.client.patch(`/api/vehicles/${car}`, { ps: 999 })],
      ['admin photo', () => admin.client.delete(`/api/vehicles/${car}/media/${image.id}`)],
      [
        'bulk preview',
        () =>
          admin.client.post('/api/admin/vehicles/bulk-status/preview', { status: 'rejected', ids: [car] }),
      ],
      [
        'bulk',
        () =>
          admin.client.post('/api/admin/vehicles/bulk-status', {
            status: 'rejected',
            changes: [{ id: car, oldStatus: 'submitted' }],
          }),
      ],
      ['waitlist invite', () => admin.client.post('/api/admin/waitlist/invite', { vehicleId: waiting })],
      [
        'reassign',
        () =>
          admin.client.post(`/api/admin/vehicles/${car}/assignments`, { from: reviewer.id, to: admin.id }),
      ],
      ['review settings', () => admin.client.put('/api/admin/reviews/settings', settings)],
    ];
    for (const [what, send] of ownerRequests) {
      const res = await clock.during(MOMENTS.over, send);
      expect([what, res.status, res.data.message]).toEqual([what, 409, FROZEN_OWNER]);
    }
    for (const [what, send] of staffRequests) {
      const res = await clock.during(MOMENTS.over, send);
      expect([what, res.status, res.data.message]).toEqual([what, 409, FROZEN_STAFF]);
    }
    // Nothing changed.
    const record = await owner.client.get(`/api/vehicles/${car}`);
    expect([record.data.status, record.data.ps, record.data.media.length]).toEqual(['submitted', 343, 1]);
  });

  it('takes an admin correction with a reason as a status-log row and an audit row; the look back follows', async () => {
    const owner = await t.signIn('user', { firstName: 'Jonas' });
    const came = await confirmed(owner);
    const stayed = await confirmed(owner);
    // The gate lets the first car in on the meeting day, by mistake also the second.
    for (const car of [came, stayed]) {
      const res = await clock.during(MOMENTS.meetingDay, () =>
        admin.client.post('/api/admin/check-in', { code: car.invitation.qrCode }),
      );
      expect(res.status, res.text).toBe(200);
    }
    const before = await lookBack();
    expect(before.vehicles.map((car) => car.id)).toEqual(
      expect.arrayContaining([came.vehicleId, stayed.vehicleId]),
    );

    // Not before the meeting is over, never without a reason, never by a reviewer.
    const early = await clock.during(MOMENTS.meetingDay, () =>
      admin.client.post(`/api/admin/vehicles/${stayed.vehicleId}/correction`, {
        checkedIn: false,
        reason: 'Versehentlich gescannt.',
      }),
    );
    expect([early.status, early.data.message]).toEqual([409, CORRECTION_MESSAGES.notOver(NAME)]);
    const short = await clock.during(MOMENTS.over, () =>
      admin.client.post(`/api/admin/vehicles/${stayed.vehicleId}/correction`, {
        checkedIn: false,
        reason: 'Fehler',
      }),
    );
    expect([short.status, short.data.issues]).toEqual([
      400,
      [{ field: 'reason', message: CORRECTION_MESSAGES.reason }],
    ]);
    const byReviewer = await clock.during(MOMENTS.over, () =>
      reviewer.client.post(`/api/admin/vehicles/${stayed.vehicleId}/correction`, {
        checkedIn: false,
        reason: 'Versehentlich gescannt.',
      }),
    );
    expect(byReviewer.status).toBe(403);
    const unchanged = await clock.during(MOMENTS.over, () =>
      admin.client.post(`/api/admin/vehicles/${stayed.vehicleId}/correction`, {
        checkedIn: true,
        reason: 'Versehentlich gescannt.',
      }),
    );
    expect([unchanged.status, unchanged.data.message]).toEqual([400, CORRECTION_MESSAGES.nothing]);

    // The second car never came: 'Nicht erschienen', its status stays.
    const reason = 'Am Tor versehentlich gescannt, das Fahrzeug war nicht da.';
    const noShow = await clock.during(MOMENTS.over, () =>
      admin.client.post(`/api/admin/vehicles/${stayed.vehicleId}/correction`, { checkedIn: false, reason }),
    );
    expect(noShow.status, noShow.text).toBe(200);
    expect(noShow.data).toMatchObject({
      status: 'confirmed',
      invitation: { checkedIn: false, checkedInAt: null },
    });
    expect((await history(stayed.vehicleId))[0]).toMatchObject({
      kind: 'correction',
      oldStatus: 'confirmed',
      newStatus: 'confirmed',
      commentInternal: `Check-in: Nicht erschienen\n${reason}`,
      reviewerId: admin.id,
    });
    expect((await lookBack()).checkedIn).toBe(before.checkedIn - 1);

    // The first car's status was wrong: rejected after all; it leaves the look back.
    const wrong = 'Die Teilnahme wurde vor Ort zurückgenommen.';
    const rejected = await clock.during(MOMENTS.nextCurrent, () =>
      admin.client.post(`/api/admin/vehicles/${came.vehicleId}/correction`, {
        status: 'rejected',
        reason: wrong,
      }),
    );
    expect(rejected.status, rejected.text).toBe(200);
    expect((await history(came.vehicleId))[0]).toMatchObject({
      kind: 'correction',
      oldStatus: 'confirmed',
      newStatus: 'rejected',
      commentInternal: wrong,
    });
    const after = await lookBack();
    expect(after.vehicles.map((car) => car.id)).not.toContain(came.vehicleId);
    expect(after.vehicles.map((car) => car.id)).toContain(stayed.vehicleId);

    // One audit row per correction, naming the application and what changed (not the reason).
    const audit = await t.orm.em
      .fork()
      .find(
        AuditLog,
        { action: 'vehicles.correct', target: { $in: [stayed.vehicleId, came.vehicleId] } },
        { orderBy: { createdAt: 'asc' } },
      );
    expect(audit.map((row) => [row.target, row.actorId, row.details])).toEqual([
      [stayed.vehicleId, admin.id, { edition: 2026, checkedIn: { from: true, to: false } }],
      [came.vehicleId, admin.id, { edition: 2026, status: { from: 'confirmed', to: 'rejected' } }],
    ]);
  });

  it('refuses an admin the correction of their own application', async () => {
    const other = await t.signIn('admin', { firstName: 'Otto' });
    const own = await submitted(other);
    const res = await clock.during(MOMENTS.over, () =>
      other.client.post(`/api/admin/vehicles/${own}/correction`, {
        status: 'rejected',
        reason: 'Eigene Bewerbung korrigieren.',
      }),
    );
    expect([res.status, res.data.conflict]).toEqual([403, 'own']);
  });

  it('takes a gate scan made during the meeting when its device syncs after it, even once 2027 is current', async () => {
    const owner = await t.signIn('user', { firstName: 'Greta' });
    for (const syncedAt of [MOMENTS.over, MOMENTS.nextCurrent]) {
      const car = await confirmed(owner);
      const scanId = randomUUID();
      const sync = await clock.during(syncedAt, () =>
        admin.client.post('/api/admin/check-in/sync', {
          deviceId: randomUUID(),
          gate: 'Tor 2',
          scans: [
            { id: scanId, invitationId: car.invitation.id, scannedAt: MOMENTS.meetingDay.toISOString() },
          ],
        }),
      );
      expect(sync.status, sync.text).toBe(200);
      expect(sync.data.scans).toEqual([expect.objectContaining({ id: scanId, result: 'admitted' })]);
      const invitation = await t.orm.em.fork().findOneOrFail(Invitation, car.invitation.id);
      expect(invitation.checkedInAt?.toISOString()).toBe(MOMENTS.meetingDay.toISOString());
    }
  });

  it('still removes a car from the look back when its owner withdraws the media consent', async () => {
    const owner = await t.signIn('user', { firstName: 'Wanda' });
    const car = await confirmed(owner);
    expect((await lookBack()).vehicles.map((listed) => listed.id)).toContain(car.vehicleId);
    const consent = await t.orm.em.fork().findOneOrFail(Consent, { vehicle: car.vehicleId, kind: 'media' });
    const withdrawn = await clock.during(MOMENTS.nextCurrent, () =>
      owner.client.post(`/api/account/consents/${consent.id}/withdraw`, {}),
    );
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect((await lookBack()).vehicles.map((listed) => listed.id)).not.toContain(car.vehicleId);
  });
});

import { randomUUID } from 'node:crypto';
import {
  INVITATION_MESSAGES,
  PARKING_ZONE_UNASSIGNED,
  VEHICLE_MESSAGES,
  type Role,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../core/model/outbox.entity.js';
import {
  APPLYING_NOON,
  createTestContext,
  EVENT_DAY_NOON,
  testClock,
  type TestClient,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';

/** Check-ins are taken on the event day only: the app's clock stands there; applications are made earlier. */
const clock = testClock(EVENT_DAY_NOON);
import { Review } from '../../core/model/review.entity.js';
import { User } from '../../core/model/user.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import { Invitation } from '../../core/model/invitation.entity.js';
import { issueInvitation } from '../../core/invitations/invitation.issue.js';
import { invitationConfirmUrl } from '../../core/invitations/invitation-links.js';
import { unseal } from '../../core/crypto/seal.js';
import { createLinkToken } from '../../core/crypto/link-token.js';

let t: TestContext;
let anon: TestClient;
let owner: TestClient;
let ownerId: string;
let user: TestClient;
let reviewer: TestClient;
let admin: TestClient;

async function signedIn(role: Role, firstName: string) {
  return t.signIn(role, { firstName, lastName: 'Test' });
}

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  anon = t.client();
  ({ client: owner, id: ownerId } = await signedIn('user', 'Olaf'));
  user = (await signedIn('user', 'Udo')).client;
  reviewer = (await signedIn('reviewer', 'Rita')).client;
  admin = (await signedIn('admin', 'Anna')).client;
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

/** Vehicles written straight into the table (the status log is not under test here). */
async function insertVehicles(count: number, status: VehicleStatus = 'invited'): Promise<string[]> {
  const em = t.orm.em.fork();
  const owner = em.getReference(User, ownerId);
  const vehicles = Array.from({ length: count }, (_, i) =>
    em.create(Vehicle, {
      edition: t.event.edition.id,
      user: owner,
      title: `Audi Quattro ${i}`,
      brand: 'Audi',
      model: `Quattro ${i}`,
      year: 1984,
      ps: 306,
      weightKg: 1300,
      topSpeedKmh: 250,
      zeroToHundredS: 4.8,
      status,
    }),
  );
  await em.flush();
  return vehicles.map((vehicle) => vehicle.id);
}

/** Issues as the invitation job would, under a job id of its own. */
const issue = (vehicleId: string, zones: { name: string; capacity: number }[]) =>
  issueInvitation(t.orm.em, vehicleId, {
    event: { ...t.event, parkingZones: zones },
    publicUrl: t.config.publicUrl,
    secret: t.config.sessionSecret,
    jobId: randomUUID(),
  });

const setStatus = (id: string, status: VehicleStatus) =>
  t.orm.em.fork().nativeUpdate(Vehicle, { id }, { status });

describe('issuing invitations', () => {
  it('gives 50 vehicles invited at once 50 different start numbers and fills the zones in order', async () => {
    const ids = await insertVehicles(50);
    const zones = [
      { name: 'Nord', capacity: 20 },
      { name: 'Süd', capacity: 20 },
      { name: 'West', capacity: 5 },
    ];
    const issued = await Promise.all(ids.map((id) => issue(id, zones)));
    const numbers = issued.map((entry) => entry!.invitation.startNumber);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers.every((n) => Number.isInteger(n) && n > 0)).toBe(true);
    const perZone: Record<string, number> = {};
    for (const entry of issued) {
      perZone[entry!.invitation.parkingZone] = (perZone[entry!.invitation.parkingZone] ?? 0) + 1;
    }
    expect(perZone).toEqual({ Nord: 20, Süd: 20, West: 5, [PARKING_ZONE_UNASSIGNED]: 5 });
    // Check-in codes: 192 random bits each, all different.
    const codes = issued.map((entry) => entry!.invitation.qrCode);
    expect(new Set(codes).size).toBe(50);
    expect(codes.every((code) => /^[A-Za-z0-9_-]{32}$/.test(code))).toBe(true);

    // Issuing again (a re-invite, a retried job) keeps every first invitation.
    const again = await Promise.all(ids.slice(0, 5).map((id) => issue(id, zones)));
    expect(again.map((entry) => [entry!.created, entry!.invitation.startNumber])).toEqual(
      issued.slice(0, 5).map((entry) => [false, entry!.invitation.startNumber]),
    );
    expect(await t.orm.em.fork().count(Invitation, { vehicle: { $in: ids } })).toBe(50);
  });

  it('queues the invitation mail with the check-in code and confirm link sealed', async () => {
    const [id] = await insertVehicles(1);
    const issued = await issue(id!, [{ name: 'Nord', capacity: 10 }]);
    const row = await t.orm.em.fork().findOneOrFail(Outbox, { id: issued!.mailJobId });
    const payload = JSON.stringify(row.payload);
    const token = new URL(
      invitationConfirmUrl(t.config.publicUrl, t.config.sessionSecret, issued!.invitation),
    ).searchParams.get('token')!;
    expect(payload).not.toContain(issued!.invitation.qrCode);
    expect(payload).not.toContain(token);
    expect(
      unseal<{ checkInCode: string }>(t.config.sessionSecret, (row.payload as { sealed: string }).sealed),
    ).toMatchObject({
      checkInCode: issued!.invitation.qrCode,
    });
  });

  it('never reuses a start number; a rejected vehicle frees its parking place', async () => {
    const [first, second, third] = await insertVehicles(3);
    const zones = [
      { name: 'A', capacity: 1 },
      { name: 'B', capacity: 5 },
    ];
    // Zone A is taken by nobody else in this test's own zone names.
    const a = (await issue(first!, zones))!.invitation;
    expect(a.parkingZone).toBe('A');
    expect((await issue(second!, zones))!.invitation.parkingZone).toBe('B');
    await setStatus(first!, 'rejected');
    const c = (await issue(third!, zones))!.invitation;
    expect(c.parkingZone).toBe('A');
    expect(c.startNumber).toBeGreaterThan(a.startNumber);
    const all = await t.orm.em.fork().find(Invitation, {});
    expect(new Set(all.map((row) => row.startNumber)).size).toBe(all.length);
  });

  it('issues nothing for a vehicle that is gone or no longer invited', async () => {
    const [waiting] = await insertVehicles(1, 'waitlist');
    expect(await issue(waiting!, [{ name: 'A', capacity: 9 }])).toBeUndefined();
    expect(await issue('00000000-0000-4000-8000-000000000000', [{ name: 'A', capacity: 9 }])).toBeUndefined();
    expect(await t.orm.em.fork().count(Invitation, { vehicle: waiting! })).toBe(0);
  });

  it('an invited status event queues the invitation job in its transaction', async () => {
    // An owner of its own: the shared one holds more vehicles than an account may create.
    const { client: applicant } = await signedIn('user', 'Paula');
    const created = await clock.during(APPLYING_NOON, () =>
      applicant.post('/api/vehicles', {
        brand: 'Porsche',
        model: '911 GT3',
        year: 2019,
        ps: 500,
        weightKg: 1430,
        topSpeedKmh: 318,
        zeroToHundredS: 3.4,
        status: 'submitted',
        ...SUBMISSION_CONSENTS,
      }),
    );
    expect(created.status).toBe(201);
    const res = await admin.patch(`/api/admin/vehicles/${created.data.id}/status`, {
      status: 'invited',
      oldStatus: 'submitted',
      comment: 'Top Auto',
    });
    expect(res.status).toBe(200);
    const rows = await t.orm.em.fork().find(Outbox, { job: 'invitation.issue' });
    expect(rows.map((row) => row.payload)).toContainEqual({ vehicleId: created.data.id });
    // No status mail of its own: the invitation job sends the invitation mail.
    const mails = await t.orm.em.fork().find(Outbox, { job: 'email.send' });
    expect(mails.filter((row) => JSON.stringify(row.payload).includes('Porsche'))).toHaveLength(1);
  });
});

async function invitedVehicle(status: VehicleStatus = 'invited') {
  const [id] = await insertVehicles(1, status === 'invited' ? 'invited' : status);
  const issued = await issue(id!, t.config.event.parkingZones);
  if (!issued) {
    await setStatus(id!, 'invited');
    const again = await issue(id!, t.config.event.parkingZones);
    await setStatus(id!, status);
    return { id: id!, invitation: again!.invitation };
  }
  return { id: id!, invitation: issued.invitation };
}

describe('the invitation as owner and staff see it', () => {
  it('owner and staff see start number, zone and check-in state, never the code', async () => {
    const { id, invitation } = await invitedVehicle('confirmed');
    await reviewer.post('/api/admin/check-in', { code: invitation.qrCode });
    const expected = {
      startNumber: invitation.startNumber,
      parkingZone: invitation.parkingZone,
      checkedIn: true,
      checkedInAt: expect.any(String),
      issuedAt: invitation.issuedAt.toISOString(),
      confirmBy: invitation.confirmBy?.toISOString() ?? null,
      releasedAt: null,
      releaseReason: null,
    };
    const own = await owner.get('/api/vehicles');
    expect(own.data.find((vehicle: { id: string }) => vehicle.id === id).invitation).toEqual(expected);
    expect((await owner.get(`/api/vehicles/${id}`)).data.invitation).toEqual(expected);
    const all = await admin.get('/api/admin/vehicles?limit=50');
    expect(all.data.items.find((vehicle: { id: string }) => vehicle.id === id).invitation).toEqual(expected);
    expect(JSON.stringify(own.data)).not.toContain(invitation.qrCode);
    const [draft] = await insertVehicles(1, 'draft');
    expect((await owner.get(`/api/vehicles/${draft}`)).data.invitation).toBeNull();
  });
});

describe('confirming an invitation', () => {
  const tokenOf = (invitation: Invitation) =>
    new URL(invitationConfirmUrl(t.config.publicUrl, t.config.sessionSecret, invitation)).searchParams.get(
      'token',
    )!;

  it('the confirm link turns invited into confirmed as the owner’s status event, once', async () => {
    const { id, invitation } = await invitedVehicle();
    const res = await anon.post('/api/invitations/confirm', { token: tokenOf(invitation) });
    expect(res.status, res.text).toBe(200);
    expect(res.data).toEqual({ status: 'confirmed', message: INVITATION_MESSAGES.confirmed, vehicleId: id });
    expect((await t.orm.em.fork().findOneOrFail(Vehicle, id)).status).toBe('confirmed');
    const log = await t.orm.em.fork().find(Review, { vehicleId: id });
    expect(log.map((row) => [row.oldStatus, row.newStatus, row.reviewerId, row.actorRole])).toEqual([
      ['invited', 'confirmed', ownerId, 'user'],
    ]);
    const mails = await t.orm.em.fork().find(Outbox, { job: 'email.send' });
    expect(
      mails.filter((row) => (row.payload as { template: string }).template === 'application-confirmed'),
    ).not.toHaveLength(0);

    const again = await anon.post('/api/invitations/confirm', { token: tokenOf(invitation) });
    expect(again.data).toEqual({
      status: 'already_confirmed',
      message: INVITATION_MESSAGES.alreadyConfirmed,
      vehicleId: id,
    });
    expect(await t.orm.em.fork().count(Review, { vehicleId: id })).toBe(1);
  });

  it('a link of the earlier form (the invitation id only) confirms a vehicle invited once', async () => {
    const { id, invitation } = await invitedVehicle();
    const legacy = createLinkToken(t.config.sessionSecret, 'invitation', 'confirm', invitation.id);
    const res = await anon.post('/api/invitations/confirm', { token: legacy });
    expect(res.status, res.text).toBe(200);
    expect((await t.orm.em.fork().findOneOrFail(Vehicle, id)).status).toBe('confirmed');
  });

  it('refuses forged tokens and vehicles that are not invited', async () => {
    const { invitation } = await invitedVehicle('waitlist');
    const token = tokenOf(invitation);
    for (const bad of [`${token}x`, `${invitation.id}.AAAA`, 'nonsense']) {
      const res = await anon.post('/api/invitations/confirm', { token: bad });
      expect(res.status).toBe(404);
      expect(res.data.message).toBe(INVITATION_MESSAGES.confirmLinkInvalid);
    }
    const refused = await anon.post('/api/invitations/confirm', { token });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe(VEHICLE_MESSAGES.confirmOnlyInvited);
  });

  it('the signed-in owner confirms through PATCH /api/vehicles/{id}', async () => {
    // An owner of its own: the shared one holds more vehicles than an account may create.
    const { client: owner, id: ownerId } = await signedIn('user', 'Otto');
    const created = await clock.during(APPLYING_NOON, () =>
      owner.post('/api/vehicles', {
        brand: 'Opel',
        model: 'Manta B',
        year: 1982,
        ps: 110,
        weightKg: 1050,
        topSpeedKmh: 190,
        zeroToHundredS: 9.5,
        status: 'submitted',
        ...SUBMISSION_CONSENTS,
      }),
    );
    const id = created.data.id as string;
    const early = await owner.patch(`/api/vehicles/${id}`, { status: 'confirmed' });
    expect(early.status).toBe(409);
    expect(early.data.message).toBe(VEHICLE_MESSAGES.confirmOnlyInvited);
    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'invited', oldStatus: 'submitted' });
    expect((await user.patch(`/api/vehicles/${id}`, { status: 'confirmed' })).status).toBe(404);
    const res = await owner.patch(`/api/vehicles/${id}`, { status: 'confirmed' });
    expect(res.status).toBe(200);
    expect(res.data.status).toBe('confirmed');
    const log = await t.orm.em.fork().find(Review, { vehicleId: id, newStatus: 'confirmed' });
    expect(log.map((row) => [row.oldStatus, row.reviewerId])).toEqual([['invited', ownerId]]);
  });
});

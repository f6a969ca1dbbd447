import { randomUUID } from 'node:crypto';
import { VEHICLE_MESSAGES, type Role } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../core/model/outbox.entity.js';
import {
  createTestContext,
  type TestClient,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';
import { Review } from '../../core/model/review.entity.js';
import { rebuildProjections } from '../../core/status-log/projections.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';

let t: TestContext;
let anon: TestClient;
let owner: TestClient;
let reviewer: TestClient;
let admin: TestClient;
let ownerId: string;

async function signedIn(role: Role, firstName: string) {
  return t.signIn(role, { firstName, lastName: 'Test' });
}

beforeAll(async () => {
  t = await createTestContext({ relay: false });
  anon = t.client();
  const o = await signedIn('user', 'Olaf');
  owner = o.client;
  ownerId = o.id;
  reviewer = (await signedIn('reviewer', 'Rita')).client;
  admin = (await signedIn('admin', 'Anna')).client;
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const vehicleBody = (overrides: Record<string, unknown> = {}) => ({
  brand: 'BMW',
  model: 'M3 E46',
  year: 2004,
  color: 'Laguna Seca Blau',
  ps: 343,
  weightKg: 1570,
  topSpeedKmh: 280,
  zeroToHundredS: 5.2,
  licensePlate: 'DD-ST 46',
  vin: 'WBSBL91060JR12345',
  ...overrides,
});

/** A submission (`status: 'submitted'`) sends the three consents unless the overrides name them. */
async function createVehicle(client: TestClient = owner, overrides: Record<string, unknown> = {}) {
  const consents = overrides.status === 'submitted' ? SUBMISSION_CONSENTS : {};
  const res = await client.post('/api/vehicles', vehicleBody({ ...consents, ...overrides }));
  expect(res.status, res.text).toBe(201);
  return res.data as { id: string; status: string; title: string; userId: string };
}

const statusOf = async (id: string) => (await t.orm.em.fork().findOneOrFail(Vehicle, id)).status;
const logCount = async (vehicleId: string) => t.orm.em.fork().count(Review, { vehicleId });

describe('creating and editing vehicles', () => {
  it('creates a draft owned by the caller; title is brand plus model; client-only fields are ignored', async () => {
    const res = await owner.post(
      '/api/vehicles',
      vehicleBody({ title: 'Mein Auto', userId: randomUUID(), createdAt: '2000-01-01T00:00:00Z' }),
    );
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ title: 'BMW M3 E46', status: 'draft', userId: ownerId, media: [] });
    expect(new Date(res.data.createdAt).getFullYear()).toBeGreaterThan(2020);
    expect(await logCount(res.data.id)).toBe(1);
  });

  it('creates directly as submitted from the wizard, logged as the owner', async () => {
    const vehicle = await createVehicle(owner, { status: 'submitted' });
    expect(vehicle.status).toBe('submitted');
    const rows = await t.orm.em.fork().find(Review, { vehicleId: vehicle.id });
    expect(rows).toHaveLength(1);
    // The log names the owner by id only; the history resolves the name when it is read.
    expect(rows[0]).toMatchObject({
      oldStatus: null,
      newStatus: 'submitted',
      reviewerId: ownerId,
      actorName: null,
    });
    const history = await admin.get(`/api/vehicles/${vehicle.id}/reviews`);
    expect(history.data[0]).toMatchObject({ actorName: 'Olaf Test', kind: 'status' });
  });

  it('refuses a status the owner may not set on creation', async () => {
    const res = await owner.post('/api/vehicles', vehicleBody({ status: 'confirmed' }));
    expect(res.status).toBe(400);
    expect(res.data.message).toBe('Ungültiger Status');
  });

  it.each([
    [{ brand: '' }, 'brand', 'Marke ist erforderlich'],
    [{ model: undefined }, 'model', 'Modell ist erforderlich'],
    [{ year: 1949 }, 'year', 'Baujahr muss zwischen 1950 und 2026 liegen'],
    [{ ps: 49 }, 'ps', 'Leistung muss zwischen 50 und 3000 PS liegen'],
    [{ weightKg: 3001 }, 'weightKg', 'Gewicht muss zwischen 500 und 3000 kg liegen'],
    [{ topSpeedKmh: 99 }, 'topSpeedKmh', 'Höchstgeschwindigkeit muss zwischen 100 und 500 km/h liegen'],
    [
      { zeroToHundredS: 301 },
      'zeroToHundredS',
      'Beschleunigung 0-100 km/h muss zwischen 0 und 300 Sekunden liegen',
    ],
    [{ driveType: 'XWD' }, 'driveType', 'Ungültige Antriebsart'],
    [{ fuelType: 'Gas' }, 'fuelType', 'Ungültige Kraftstoffart'],
  ])('validates %o with the German message', async (change, field, message) => {
    const res = await owner.post('/api/vehicles', vehicleBody(change));
    expect(res.status).toBe(400);
    expect(res.data.issues).toContainEqual({ field, message });
  });

  it('edits fields with the edit rules and recomputes the title', async () => {
    const { id } = await createVehicle();
    const res = await owner.patch(`/api/vehicles/${id}`, {
      model: 'M3 CSL',
      zeroToHundredS: '4,9',
      driveType: 'rwd',
      title: 'ignoriert',
      status: undefined,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ title: 'BMW M3 CSL', zeroToHundredS: 4.9, driveType: 'RWD' });

    for (const [value, message] of [
      ['', 'Bitte geben Sie einen gültigen Wert ein'],
      ['abc', 'Bitte geben Sie einen gültigen Wert ein'],
      [-1, 'Wert muss mindestens 0 sein'],
      [300.5, 'Wert darf maximal 300 sein'],
    ] as const) {
      const bad = await owner.patch(`/api/vehicles/${id}`, { zeroToHundredS: value });
      expect(bad.status).toBe(400);
      expect(bad.data.issues).toContainEqual({ field: 'zeroToHundredS', message });
    }
    expect((await owner.get(`/api/vehicles/${id}`)).data.zeroToHundredS).toBe(4.9);
  });
});

describe('owner status rules', () => {
  it('submits only drafts and withdraws from any status but draft and rejected', async () => {
    const { id } = await createVehicle();
    const withdrawDraft = await owner.patch(`/api/vehicles/${id}`, { status: 'draft' });
    expect(withdrawDraft.status).toBe(409);
    expect(withdrawDraft.data.message).toBe(VEHICLE_MESSAGES.withdrawNotAllowed);

    expect(
      (await owner.patch(`/api/vehicles/${id}`, { status: 'submitted', ...SUBMISSION_CONSENTS })).data.status,
    ).toBe('submitted');
    const again = await owner.patch(`/api/vehicles/${id}`, { status: 'submitted', ...SUBMISSION_CONSENTS });
    expect(again.status).toBe(409);
    expect(again.data.message).toBe(VEHICLE_MESSAGES.submitOnlyDraft);

    expect((await owner.patch(`/api/vehicles/${id}`, { status: 'draft' })).data.status).toBe('draft');
    const confirmDraft = await owner.patch(`/api/vehicles/${id}`, { status: 'confirmed' });
    expect(confirmDraft.status).toBe(409);
    expect(confirmDraft.data.message).toBe(VEHICLE_MESSAGES.confirmOnlyInvited);
    expect((await owner.patch(`/api/vehicles/${id}`, { status: 'invited' })).status).toBe(400);

    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'rejected', oldStatus: 'draft' });
    const withdrawRejected = await owner.patch(`/api/vehicles/${id}`, { status: 'draft' });
    expect(withdrawRejected.status).toBe(409);
    expect(await statusOf(id)).toBe('rejected');
    // create, submit, withdraw, reject: four events; refused requests wrote none.
    expect(await logCount(id)).toBe(4);
  });

  it('deletes drafts only', async () => {
    const { id } = await createVehicle(owner, { status: 'submitted' });
    const refused = await owner.delete(`/api/vehicles/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe(VEHICLE_MESSAGES.deleteOnlyDraft);
    await owner.patch(`/api/vehicles/${id}`, { status: 'draft' });
    expect((await owner.delete(`/api/vehicles/${id}`)).status).toBe(204);
    expect((await owner.get(`/api/vehicles/${id}`)).status).toBe(404);
    // The history outlives the vehicle: creation as submitted, withdrawal.
    expect(await logCount(id)).toBe(2);
  });
});

describe('reviewer and admin status changes', () => {
  it('logs each change with note and score; a stale old status gets 409 and changes nothing', async () => {
    const { id } = await createVehicle(owner, { status: 'submitted' });
    const ok = await reviewer.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'in_review',
      oldStatus: 'submitted',
      comment: 'Fotos prüfen',
      score: 7,
    });
    expect(ok.status).toBe(200);
    expect(ok.data.status).toBe('in_review');

    const stale = await admin.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'invited',
      oldStatus: 'submitted',
      comment: 'zu spät',
    });
    expect(stale.status).toBe(409);
    expect(stale.data.message).toBe(VEHICLE_MESSAGES.staleStatus);
    expect(await statusOf(id)).toBe('in_review');

    const unchanged = await admin.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'in_review',
      oldStatus: 'in_review',
    });
    expect(unchanged.status).toBe(400);
    expect(
      (await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'x', oldStatus: 'in_review' })).data
        .message,
    ).toBe('Ungültiger Status');

    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'waitlist', oldStatus: 'in_review' });
    const history = await reviewer.get(`/api/vehicles/${id}/reviews`);
    expect(history.status).toBe(200);
    expect(history.data.map((row: { newStatus: string }) => row.newStatus)).toEqual([
      'waitlist',
      'in_review',
      'submitted',
    ]);
    expect(history.data[1]).toMatchObject({
      oldStatus: 'submitted',
      actorName: 'Rita Test',
      actorRole: 'reviewer',
      commentInternal: 'Fotos prüfen',
      score: 7,
    });
  });

  it('keeps internal notes from the owner', async () => {
    const { id } = await createVehicle(owner, { status: 'submitted' });
    await admin.patch(`/api/admin/vehicles/${id}/status`, {
      status: 'rejected',
      oldStatus: 'submitted',
      comment: 'GEHEIME-NOTIZ',
    });
    const forOwner = await owner.get(`/api/vehicles/${id}/reviews`);
    expect(forOwner.status).toBe(403);
    expect(forOwner.text).not.toContain('GEHEIME-NOTIZ');
    for (const path of ['/api/vehicles', `/api/vehicles/${id}`]) {
      expect((await owner.get(path)).text).not.toContain('GEHEIME-NOTIZ');
    }
  });

  it('concurrent changes from the same old status: exactly one wins', async () => {
    const { id } = await createVehicle(owner, { status: 'submitted' });
    const results = await Promise.all(
      (['in_review', 'waitlist', 'invited', 'rejected'] as const).map((status) =>
        admin.patch(`/api/admin/vehicles/${id}/status`, { status, oldStatus: 'submitted' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await logCount(id)).toBe(2);
  });
});

describe('status mails', () => {
  const mailsFor = async (email: string) =>
    (await t.orm.em.fork().find(Outbox, { job: 'email.send' }, { orderBy: { createdAt: 'asc' } }))
      .map((row) => row.payload as { template: string; to: string; props: Record<string, string> })
      .filter((payload) => payload.to === email);

  it('each status event queues its applicant mail once, without internal notes', async () => {
    const { client, email } = await t.signIn('user', { firstName: 'Mia' });
    const { id } = await createVehicle(client, { status: 'submitted', name: 'Silberpfeil' });
    await client.patch(`/api/vehicles/${id}`, { status: 'draft' });
    await client.patch(`/api/vehicles/${id}`, { status: 'submitted', ...SUBMISSION_CONSENTS });
    for (const [from, to] of [
      ['submitted', 'in_review'],
      ['in_review', 'waitlist'],
      ['waitlist', 'confirmed'],
      ['confirmed', 'rejected'],
    ]) {
      const res = await admin.patch(`/api/admin/vehicles/${id}/status`, {
        status: to,
        oldStatus: from,
        comment: 'INTERNE-NOTIZ',
      });
      expect(res.status).toBe(200);
    }
    // A refused change queues nothing.
    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'confirmed', oldStatus: 'waitlist' });

    const mails = (await mailsFor(email)).filter((mail) => mail.template !== 'account-confirm');
    expect(mails.map((mail) => mail.template)).toEqual([
      'application-received',
      'application-received',
      'application-waitlist',
      'application-confirmed',
      'application-rejected',
    ]);
    expect(mails[0]!.props).toEqual({
      firstName: 'Mia',
      vehicleTitle: 'Silberpfeil',
      dashboardUrl: `${t.config.publicUrl}/dashboard`,
    });
    expect(JSON.stringify(mails)).not.toContain('INTERNE-NOTIZ');
  });
});

// Who may call what is the permission matrix's (http/permissions.test.ts); here, what answers reveal.
describe('permissions', () => {
  it('answers carry no secrets and no other user’s contact data', async () => {
    await createVehicle();
    const adminList = await admin.get('/api/admin/vehicles?limit=50');
    expect(adminList.status).toBe(200);
    const ownerEntry = adminList.data.items.find((v: { userId: string }) => v.userId === ownerId);
    expect(Object.keys(ownerEntry.user).sort()).toEqual([
      'email',
      'firstName',
      'id',
      'lastName',
      'phone',
      'role',
    ]);
    for (const text of [adminList.text, (await admin.get('/api/admin/media')).text]) {
      expect(text).not.toMatch(/passwordHash|password_hash|resetToken|argon2/);
    }
    const ownList = await owner.get('/api/vehicles');
    expect(ownList.data.every((v: { userId: string }) => v.userId === ownerId)).toBe(true);
    expect(ownList.text).not.toMatch(/"user":|@example\.de|passwordHash|resetToken/);
  });
});

describe('public list read model', () => {
  it('lists confirmed vehicles with public fields only, revalidates by ETag and follows status events', async () => {
    const { id } = await createVehicle(owner, { status: 'submitted', name: 'Blauer Blitz' });
    const first = await anon.get('/api/vehicles/public');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // As a browser's cache revalidates (fetch() would add `Cache-Control: no-cache` on its own).
    const revalidate = { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' };
    expect((await anon.get('/api/vehicles/public', revalidate)).status).toBe(304);

    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'confirmed', oldStatus: 'submitted' });
    const listed = await anon.get('/api/vehicles/public', revalidate);
    expect(listed.status).toBe(200);
    const entry = listed.data.find((v: { id: string }) => v.id === id);
    expect(entry).toMatchObject({
      id,
      name: 'Blauer Blitz',
      brand: 'BMW',
      model: 'M3 E46',
      ps: 343,
      media: [],
    });
    expect(listed.text).not.toMatch(/licensePlate|DD-ST 46|vin|WBSBL|userId|email|Olaf/);

    // An edit of a listed vehicle reaches the list; leaving confirmed removes it.
    await owner.patch(`/api/vehicles/${id}`, { name: 'Roter Blitz' });
    const edited = await anon.get('/api/vehicles/public');
    expect(edited.data.find((v: { id: string }) => v.id === id).name).toBe('Roter Blitz');
    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'waitlist', oldStatus: 'confirmed' });
    expect((await anon.get('/api/vehicles/public')).data.some((v: { id: string }) => v.id === id)).toBe(
      false,
    );
  });
});

describe('projections rebuilt from the status log', () => {
  it('verifies clean, reports a tampered projection and repairs it', async () => {
    const { id } = await createVehicle(owner, { status: 'submitted' });
    await admin.patch(`/api/admin/vehicles/${id}/status`, { status: 'confirmed', oldStatus: 'submitted' });
    const healthy = await rebuildProjections(t.orm.em.fork(), { write: false });
    expect(healthy.mismatches).toEqual([]);
    expect(healthy.publicListDrift).toBe(0);
    expect(healthy.events).toBeGreaterThan(0);

    // Tamper with the projections behind the log's back.
    await t.orm.em.getConnection().execute(`update vehicle set status = 'rejected' where id = ?`, [id]);
    await t.orm.em
      .getConnection()
      .execute(`update public_vehicle set data = '{}' where vehicle_id = ?`, [id]);
    const tampered = await rebuildProjections(t.orm.em.fork(), { write: false });
    expect(tampered.mismatches).toEqual([
      { vehicleId: id, title: 'BMW M3 E46', projected: 'rejected', replayed: 'confirmed' },
    ]);
    expect(tampered.publicListDrift).toBe(1);

    const repaired = await rebuildProjections(t.orm.em.fork(), { write: true });
    expect(repaired.mismatches).toHaveLength(1);
    expect(await statusOf(id)).toBe('confirmed');
    const after = await rebuildProjections(t.orm.em.fork(), { write: false });
    expect(after.mismatches).toEqual([]);
    expect(after.publicListDrift).toBe(0);
    expect((await anon.get('/api/vehicles/public')).data.find((v: { id: string }) => v.id === id).brand).toBe(
      'BMW',
    );
  });

  it('user deletion removes vehicles and queues the removal of every stored object', async () => {
    const { client, id: userId } = await signedIn('user', 'Gerd');
    const { id } = await createVehicle(client);
    const { deleteAccount } = await import('../../core/accounts/account-deletion.js');
    expect(await deleteAccount(t.orm.em, userId)).toMatchObject({ vehicles: 1 });
    expect(await t.orm.em.fork().count(Vehicle, { id })).toBe(0);
    const jobs = await t.orm.em.fork().find(Outbox, { job: 'storage.delete' });
    expect(
      jobs.some((job) => (job.payload.prefixes as string[] | undefined)?.includes(`uploads/${userId}/`)),
    ).toBe(true);
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });
});

import { randomUUID } from 'node:crypto';
import { QUARTETT_MESSAGES, type Role } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../core/model/outbox.entity.js';
import {
  createTestContext,
  type TestClient,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';
import { Media } from '../../core/model/media.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import { QuartettCard } from '../../core/model/quartett-card.entity.js';
import { QuartettSet } from '../../core/model/quartett-set.entity.js';

/** The API without the worker: the export job's results are written straight into the database. */

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
  t = await createTestContext({ relay: false });
  anon = t.client();
  const o = await signedIn('user', 'Olaf');
  owner = o.client;
  ownerId = o.id;
  user = (await signedIn('user', 'Ulla')).client;
  reviewer = (await signedIn('reviewer', 'Rita')).client;
  admin = (await signedIn('admin', 'Anna')).client;
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

async function createVehicle(overrides: Record<string, unknown> = {}) {
  const res = await owner.post('/api/vehicles', {
    brand: 'BMW',
    model: 'M3 E46',
    year: 2004,
    color: 'Laguna Seca Blau',
    ps: 343,
    weightKg: 1570,
    topSpeedKmh: 280,
    zeroToHundredS: 5.2,
    ...overrides,
  });
  expect(res.status, res.text).toBe(201);
  return res.data.id as string;
}

async function confirm(id: string) {
  const { status } = await t.orm.em.fork().findOneOrFail(Vehicle, id);
  const res = await admin.patch(`/api/admin/vehicles/${id}/status`, {
    status: 'confirmed',
    oldStatus: status,
  });
  expect(res.status, res.text).toBe(200);
}

async function createSet(title = 'Sommer 2026') {
  const res = await admin.post('/api/admin/quartett-sets', { title });
  expect(res.status, res.text).toBe(201);
  return res.data as { id: string; version: number };
}

/** What the export job leaves behind: cards for the vehicles and a ready set. */
async function markReady(setId: string, vehicleIds: string[]) {
  const em = t.orm.em.fork();
  const set = await em.findOneOrFail(QuartettSet, setId);
  vehicleIds.forEach((vehicleId, position) =>
    em.create(QuartettCard, { set, vehicle: vehicleId, position, code: `A${position + 1}` }),
  );
  em.assign(set, {
    status: 'ready',
    progress: 100,
    cardCount: vehicleIds.length,
    exportFileUrl: `/objects/exports/quartett/v${set.version}-${set.id}.pdf`,
    finishedAt: new Date(),
  });
  await em.flush();
}

describe('starting an export', () => {
  it('refuses to start without a confirmed vehicle', async () => {
    await createVehicle();
    const res = await admin.post('/api/admin/quartett-sets', { title: 'Leer' });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(QUARTETT_MESSAGES.noConfirmedVehicles);
    expect(await t.orm.em.fork().count(QuartettSet, {})).toBe(0);
  });

  it('is for admins only', async () => {
    await confirm(await createVehicle());
    for (const [client, status] of [
      [anon, 401],
      [user, 403],
      [reviewer, 403],
    ] as const) {
      expect((await client.post('/api/admin/quartett-sets', { title: 'X' })).status).toBe(status);
      expect((await client.get('/api/admin/quartett-sets')).status).toBe(status);
      expect((await client.get(`/api/admin/quartett-sets/${randomUUID()}`)).status).toBe(status);
      expect((await client.post(`/api/admin/quartett-sets/${randomUUID()}/release`)).status).toBe(status);
    }
    expect(await t.orm.em.fork().count(QuartettSet, {})).toBe(0);
  });

  it.each([
    [{}, QUARTETT_MESSAGES.titleRequired],
    [{ title: '   ' }, QUARTETT_MESSAGES.titleRequired],
    [{ title: 42 }, QUARTETT_MESSAGES.titleRequired],
    [{ title: 'x'.repeat(201) }, QUARTETT_MESSAGES.titleMax],
  ])('validates %o with the German message', async (body, message) => {
    const res = await admin.post('/api/admin/quartett-sets', body);
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(message);
    expect(res.data.issues).toContainEqual({ field: 'title', message });
  });

  it('creates a queued version and its export job in one go', async () => {
    const res = await admin.post('/api/admin/quartett-sets', { title: '  Sommer 2026  ' });
    expect(res.status, res.text).toBe(201);
    const version = res.data.version as number;
    expect(Number.isInteger(version)).toBe(true);
    expect(res.data).toEqual({
      id: expect.any(String),
      title: 'Sommer 2026',
      version,
      status: 'queued',
      statusLabel: 'In Warteschlange',
      progress: 0,
      cardCount: 0,
      exportFileUrl: null,
      downloadName: `Schlosstreffen-Quartett-v${version}.pdf`,
      downloadUrl: null,
      error: null,
      createdAt: expect.any(String),
      finishedAt: null,
      releasedAt: null,
      containsDeletedAccount: false,
    });
    const jobs = await t.orm.em.fork().find(Outbox, { job: 'quartett.export' });
    expect(jobs.map((job) => job.payload)).toEqual([{ setId: res.data.id }]);

    const next = await createSet('Sommer 2026 (2)');
    expect(next.version).toBe(version + 1);
  });
});

describe('listing sets', () => {
  it('lists newest version first and shows one set', async () => {
    const latest = await createSet('Neueste');
    const list = await admin.get('/api/admin/quartett-sets');
    expect(list.status).toBe(200);
    const versions = (list.data as unknown as { version: number }[]).map((set) => set.version);
    expect(versions[0]).toBe(latest.version);
    expect(versions).toEqual([...versions].sort((a, b) => b - a));

    await markReady(latest.id, []);
    const one = await admin.get(`/api/admin/quartett-sets/${latest.id}`);
    expect(one.status).toBe(200);
    const file = `/objects/exports/quartett/v${latest.version}-${latest.id}.pdf`;
    expect(one.data).toMatchObject({
      id: latest.id,
      title: 'Neueste',
      status: 'ready',
      statusLabel: 'Fertig',
      progress: 100,
      exportFileUrl: file,
      downloadUrl: `${file}?download=Schlosstreffen-Quartett-v${latest.version}.pdf`,
      finishedAt: expect.any(String),
    });
  });

  it('answers 404 for an unknown set', async () => {
    for (const id of [randomUUID(), 'kein-uuid']) {
      const res = await admin.get(`/api/admin/quartett-sets/${id}`);
      expect(res.status).toBe(404);
      expect(res.data.message).toBe(QUARTETT_MESSAGES.setNotFound);
    }
    const release = await admin.post(`/api/admin/quartett-sets/${randomUUID()}/release`);
    expect(release.status).toBe(404);
    expect(release.data.message).toBe(QUARTETT_MESSAGES.setNotFound);
  });
});

describe('releasing a set', () => {
  it('releases only a ready set, and only once', async () => {
    const set = await createSet();
    const early = await admin.post(`/api/admin/quartett-sets/${set.id}/release`);
    expect(early.status).toBe(409);
    expect(early.data.message).toBe(QUARTETT_MESSAGES.notReady);

    await t.orm.em.fork().nativeUpdate(QuartettSet, { id: set.id }, { status: 'failed', error: 'S3 weg' });
    expect((await admin.post(`/api/admin/quartett-sets/${set.id}/release`)).status).toBe(409);

    await markReady(set.id, []);
    const released = await admin.post(`/api/admin/quartett-sets/${set.id}/release`);
    expect(released.status, released.text).toBe(200);
    expect(released.data).toMatchObject({ id: set.id, status: 'ready', releasedAt: expect.any(String) });

    const again = await admin.post(`/api/admin/quartett-sets/${set.id}/release`);
    expect(again.status).toBe(409);
    expect(again.data.message).toBe(QUARTETT_MESSAGES.alreadyReleased);
    expect((await admin.get(`/api/admin/quartett-sets/${set.id}`)).data.releasedAt).toBe(
      released.data.releasedAt,
    );
  });
});

describe('the release lock', () => {
  let locked: string;
  let free: string;
  let mediaId: string;

  beforeAll(async () => {
    locked = await createVehicle({ name: 'Blauer Blitz' });
    free = await createVehicle({ name: 'Roter Renner' });
    await confirm(locked);
    await confirm(free);
    const em = t.orm.em.fork();
    const media = em.create(Media, {
      vehicle: locked,
      url: `/objects/uploads/${ownerId}/${randomUUID()}.jpg`,
      isHero: true,
    });
    await em.flush();
    mediaId = media.id;

    // Before the release, the set's vehicles are still editable.
    const set = await createSet('Gesperrt');
    await markReady(set.id, [locked]);
    const early = await owner.patch(`/api/vehicles/${locked}`, { color: 'Mattschwarz' });
    expect(early.status, early.text).toBe(200);
    const released = await admin.post(`/api/admin/quartett-sets/${set.id}/release`);
    expect(released.status, released.text).toBe(200);
  });

  const vehicleOf = (id: string) => t.orm.em.fork().findOneOrFail(Vehicle, id);

  it("refuses the owner's and staff's edits of a released vehicle", async () => {
    const before = await vehicleOf(locked);
    for (const client of [owner, admin, reviewer]) {
      const res = await client.patch(`/api/vehicles/${locked}`, { color: 'Giftgrün', ps: 500 });
      expect(res.status, res.text).toBe(409);
      expect(res.data.message).toBe(QUARTETT_MESSAGES.vehicleLocked);
    }
    const after = await vehicleOf(locked);
    expect(after).toMatchObject({ color: 'Mattschwarz', ps: 343, updatedAt: before.updatedAt });
  });

  it('refuses attaching, arranging and removing its images', async () => {
    const attach = await owner.post(`/api/vehicles/${locked}/media`, {
      type: 'image',
      url: `/objects/uploads/${ownerId}/${randomUUID()}.jpg`,
    });
    expect(attach.status).toBe(409);
    expect(attach.data.message).toBe(QUARTETT_MESSAGES.vehicleLocked);

    const update = await admin.patch(`/api/vehicles/${locked}/media`, {
      updates: [{ id: mediaId, cropX: 10, scale: 150 }],
    });
    expect(update.status).toBe(409);
    expect(update.data.message).toBe(QUARTETT_MESSAGES.vehicleLocked);

    const remove = await owner.delete(`/api/vehicles/${locked}/media/${mediaId}`);
    expect(remove.status).toBe(409);
    expect(remove.data.message).toBe(QUARTETT_MESSAGES.vehicleLocked);

    const media = await t.orm.em.fork().find(Media, { vehicle: locked });
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({ id: mediaId, cropX: '50.00', scale: '100.00', isHero: true });
  });

  it('leaves a vehicle outside the released set editable', async () => {
    const res = await owner.patch(`/api/vehicles/${free}`, { color: 'Kirschrot' });
    expect(res.status, res.text).toBe(200);
    expect(res.data.color).toBe('Kirschrot');
  });

  it('still allows a status-only change such as a withdrawal', async () => {
    const withdrawn = await owner.patch(`/api/vehicles/${locked}`, { status: 'draft' });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.data.status).toBe('draft');
    expect(
      (await owner.patch(`/api/vehicles/${locked}`, { status: 'submitted', ...SUBMISSION_CONSENTS, ps: 400 }))
        .status,
    ).toBe(409);
    expect((await vehicleOf(locked)).status).toBe('draft');
    const submitted = await owner.patch(`/api/vehicles/${locked}`, {
      status: 'submitted',
      ...SUBMISSION_CONSENTS,
    });
    expect(submitted.status, submitted.text).toBe(200);
  });
});

import { SIGN_MESSAGES, type Role } from '@schlosstreffen/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../core/model/audit-log.entity.js';
import { Outbox } from '../../core/model/outbox.entity.js';
import { SignExport } from '../../core/model/sign-export.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import { insertNumberedCar as insertCar } from '../../testing/signs.js';
import {
  APPLYING_NOON,
  createTestContext,
  EVENT_DAY_NOON,
  PASSWORD,
  testClock,
  type TestClient,
  type TestContext,
} from '../../testing/index.js';

/** The API without the worker: the routes queue the job; its result is written straight into the database. */

/** The app's clock: in the application window, unless a test moves it past the meeting. */
const clock = testClock(APPLYING_NOON);
const DAY_AFTER = new Date(EVENT_DAY_NOON.getTime() + 24 * 3600_000);

let t: TestContext;
let anon: TestClient;
let owner: { client: TestClient; id: string };
let user: TestClient;
let reviewer: TestClient;
let admin: TestClient;

const signedIn = (role: Role, firstName: string) => t.signIn(role, { firstName, lastName: 'Test' });

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  anon = t.client();
  owner = await signedIn('user', 'Olaf');
  user = (await signedIn('user', 'Ulla')).client;
  reviewer = (await signedIn('reviewer', 'Rita')).client;
  admin = (await signedIn('admin', 'Anna')).client;
});
afterAll(() => t?.close());
beforeEach(() => t.resetRateLimits());

const jobsOf = async (exportId: string) =>
  (await t.orm.em.fork().find(Outbox, { job: 'sign.export' })).filter(
    (row) => (row.payload as { exportId?: string }).exportId === exportId,
  );

describe('the edition’s sign sets', () => {
  it('are refused while no confirmed car holds a start number', async () => {
    const res = await admin.post('/api/admin/signs', { format: 'a4' });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe(SIGN_MESSAGES.noSigns);
    expect((await admin.post('/api/admin/signs', { format: 'a3' })).status).toBe(400);
  });

  it('are started by admins, once while one renders, anew once it is ready', async () => {
    await insertCar(t, { ownerId: owner.id, name: 'Grüne Hölle' });
    expect((await reviewer.post('/api/admin/signs', { format: 'a4' })).status).toBe(403);
    expect((await anon.post('/api/admin/signs', { format: 'a4' })).status).toBe(401);

    const started = await admin.post('/api/admin/signs', { format: 'a4' });
    expect(started.status, started.text).toBe(201);
    expect(started.data).toMatchObject({
      format: 'a4',
      formatLabel: 'A4 quer, ein Schild je Seite',
      status: 'queued',
      statusLabel: 'In Warteschlange',
      vehicleId: null,
      downloadUrl: null,
    });
    const id = started.data.id as string;
    expect(await jobsOf(id)).toHaveLength(1);
    const audit = await t.orm.em.fork().find(AuditLog, { action: 'signs.export' });
    expect(audit).toHaveLength(1);

    // Asked again while queued: the same export, no second job.
    const again = await admin.post('/api/admin/signs', { format: 'a4' });
    expect(again.data.id).toBe(id);
    expect(await jobsOf(id)).toHaveLength(1);

    await t.orm.em
      .fork()
      .nativeUpdate(
        SignExport,
        { id },
        { status: 'ready', progress: 100, signCount: 1, fileKey: `exports/signs/${id}.pdf` },
      );
    const ready = await admin.get(`/api/admin/signs/${id}`);
    expect(ready.data).toMatchObject({ status: 'ready', signCount: 1 });
    expect(ready.data.downloadUrl).toBe(
      `/objects/exports/signs/${id}.pdf?download=${encodeURIComponent(ready.data.downloadName as string)}`,
    );

    // Asked once it is ready: the same row renders anew.
    const renewed = await admin.post('/api/admin/signs', { format: 'a4' });
    expect(renewed.data).toMatchObject({ id, status: 'queued', downloadUrl: null });
    expect(await jobsOf(id)).toHaveLength(2);

    const a5 = await admin.post('/api/admin/signs', { format: 'a5' });
    expect(a5.data.id).not.toBe(id);
    const list = await admin.get('/api/admin/signs');
    expect((list.data as unknown as { format: string }[]).map((row) => row.format)).toEqual(['a4', 'a5']);
    expect((await admin.get('/api/admin/signs/kein-schild')).status).toBe(404);
  });
});

describe('a car’s sign', () => {
  it('is made for its owner and staff, for nobody else', async () => {
    const { vehicleId, startNumber } = await insertCar(t, { ownerId: owner.id, name: 'Roter Renner' });
    const path = `/api/vehicles/${vehicleId}/sign`;
    expect((await owner.client.get(path)).status).toBe(404);
    expect((await anon.post(path, {})).status).toBe(401);
    expect((await user.post(path, {})).status).toBe(404);

    const started = await owner.client.post(path, {});
    expect(started.status, started.text).toBe(202);
    expect(started.data).toMatchObject({
      vehicleId,
      format: 'a4',
      status: 'queued',
      downloadName: `Windschild-${t.event.edition.year}-Nr-${startNumber}.pdf`,
    });
    expect(await jobsOf(started.data.id as string)).toHaveLength(1);
    expect((await reviewer.post(path, {})).data.id).toBe(started.data.id);
    expect((await admin.get(path)).status).toBe(200);
    expect((await user.get(path)).status).toBe(404);
    // A car's sign is no edition set.
    expect((await admin.get(`/api/admin/signs/${started.data.id}`)).status).toBe(404);
  });

  it('is one row when asked for twice at once, with one job', async () => {
    const { vehicleId } = await insertCar(t, { ownerId: owner.id, name: 'Doppelklick' });
    const path = `/api/vehicles/${vehicleId}/sign`;
    const [first, second] = await Promise.all([owner.client.post(path, {}), owner.client.post(path, {})]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.data.id).toBe(second.data.id);
    expect(await jobsOf(first.data.id as string)).toHaveLength(1);
  });

  it('exists only for a confirmed car holding a start number', async () => {
    const { vehicleId } = await insertCar(t, {
      ownerId: owner.id,
      name: 'Nur eingeladen',
      status: 'invited',
    });
    const res = await owner.client.post(`/api/vehicles/${vehicleId}/sign`, {});
    expect(res.status).toBe(409);
    expect(res.data.message).toBe(SIGN_MESSAGES.vehicleWithoutSign);

    const { vehicleId: rejected } = await insertCar(t, { ownerId: owner.id, name: 'Abgelehnt' });
    await t.orm.em.fork().nativeUpdate(Vehicle, { id: rejected }, { status: 'rejected' });
    expect((await admin.post(`/api/vehicles/${rejected}/sign`, {})).status).toBe(409);
  });
});

describe('once the meeting is over', () => {
  it('signs are still made and read: they change no record', async () => {
    const { vehicleId } = await insertCar(t, { ownerId: owner.id, name: 'Nach dem Treffen' });
    await clock.during(DAY_AFTER, async () => {
      const own = await owner.client.post(`/api/vehicles/${vehicleId}/sign`, {});
      expect(own.status, own.text).toBe(202);
      expect((await owner.client.get(`/api/vehicles/${vehicleId}/sign`)).status).toBe(200);
      const set = await admin.post('/api/admin/signs', { format: 'a5' });
      expect(set.status, set.text).toBe(201);
    });
  });
});

describe('deleting an account', () => {
  it("deletes the signs of the person's cars with them", async () => {
    const leaving = await signedIn('user', 'Lea');
    const { vehicleId } = await insertCar(t, { ownerId: leaving.id, name: 'Abschied' });
    const started = await leaving.client.post(`/api/vehicles/${vehicleId}/sign`, {});
    expect(started.status, started.text).toBe(202);
    const deleted = await leaving.client.post('/api/account/delete', { password: PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await t.orm.em.fork().count(SignExport, { id: started.data.id as string })).toBe(0);
    const deletions = await t.orm.em.fork().find(Outbox, { job: 'storage.delete' });
    expect(deletions.flatMap((row) => row.payload.keys as string[])).toContain(
      `exports/signs/${started.data.id as string}.pdf`,
    );
  });
});

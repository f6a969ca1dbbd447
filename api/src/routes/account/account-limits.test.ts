import { randomUUID } from 'node:crypto';
import { ACCOUNT_LIMITS, ACCOUNT_LIMIT_MESSAGES, MAX_IMAGE_BYTES } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataExport } from '../../core/model/data-export.entity.js';
import { Upload } from '../../core/model/upload.entity.js';
import { User } from '../../core/model/user.entity.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import {
  createTestContext,
  createVehicle,
  type TestContext,
  SUBMISSION_CONSENTS,
} from '../../testing/index.js';

const HOUR = 3600 * 1000;

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ relay: false });
});
afterAll(() => t?.close());

const em = () => t.orm.em.fork();

describe('per-account limits', () => {
  it(`holds at most ${ACCOUNT_LIMITS.vehicles} vehicles per account, drafts included`, async () => {
    const owner = await t.signIn('user');
    const other = await t.signIn('user');
    const fork = em();
    for (let i = 1; i < ACCOUNT_LIMITS.vehicles; i++) {
      fork.create(Vehicle, {
        edition: t.event.edition.id,
        user: fork.getReference(User, owner.id),
        title: `Golf ${i}`,
        brand: 'VW',
        model: `Golf ${i}`,
        year: 1990,
        ps: 112,
        weightKg: 900,
        topSpeedKmh: 190,
        zeroToHundredS: 8.3,
        status: i % 2 ? 'draft' : 'submitted',
      });
    }
    await fork.flush();
    // The last one the limit allows, to one of three asking at once; then no more, draft or application.
    const racing = await Promise.all(
      [1, 2, 3].map(() =>
        owner.client.post('/api/vehicles', {
          brand: 'Audi',
          model: 'Quattro',
          year: 1984,
          ps: 306,
          weightKg: 1300,
          topSpeedKmh: 250,
          zeroToHundredS: 4.8,
        }),
      ),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    const last = racing.find((res) => res.status === 201)!.data as { id: string };
    for (const status of ['draft', 'submitted']) {
      const refused = await owner.client.post('/api/vehicles', {
        brand: 'BMW',
        model: 'M3',
        year: 2004,
        ps: 343,
        weightKg: 1570,
        topSpeedKmh: 280,
        zeroToHundredS: 5.2,
        status,
        ...(status === 'submitted' ? SUBMISSION_CONSENTS : {}),
      });
      expect(refused.status).toBe(409);
      expect(refused.data.message).toBe(ACCOUNT_LIMIT_MESSAGES.vehicles);
    }
    expect(await em().count(Vehicle, { user: owner.id })).toBe(ACCOUNT_LIMITS.vehicles);
    // Another account is not affected; a deleted draft makes room again.
    await createVehicle(other.client);
    expect((await owner.client.delete(`/api/vehicles/${last.id}`)).status).toBe(204);
    await createVehicle(owner.client);
  });

  it(`builds at most one data export at a time and ${ACCOUNT_LIMITS.dataExportsPerDay} a day`, async () => {
    const owner = await t.signIn('user');
    // One from yesterday does not count.
    await em().insert(DataExport, {
      id: randomUUID(),
      user: owner.id,
      status: 'ready',
      progress: 100,
      createdAt: new Date(Date.now() - 25 * HOUR),
    });
    for (let i = 0; i < ACCOUNT_LIMITS.dataExportsPerDay; i++) {
      const started = await owner.client.post('/api/account/export', {});
      expect(started.status, started.text).toBe(201);
      const running = await owner.client.post('/api/account/export', {});
      expect(running.status).toBe(409);
      await em().nativeUpdate(DataExport, { user: owner.id }, { status: 'ready', progress: 100 });
    }
    const refused = await owner.client.post('/api/account/export', {});
    expect(refused.status).toBe(429);
    expect(refused.data.message).toBe(ACCOUNT_LIMIT_MESSAGES.dataExports);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await em().count(DataExport, { user: owner.id })).toBe(ACCOUNT_LIMITS.dataExportsPerDay + 1);
  });

  it(`signs at most ${ACCOUNT_LIMITS.uploadBytesPerDay} bytes of uploads per account in 24 hours`, async () => {
    const owner = await t.signIn('user');
    const other = await t.signIn('user');
    const record = (userId: string, size: number, createdAt: Date) =>
      em().insert(Upload, {
        key: `uploads/${userId}/${randomUUID()}.jpg`,
        user: userId,
        contentType: 'image/jpeg',
        size,
        createdAt,
      });
    // Uploads of yesterday do not count; today's leave exactly one full-size image.
    await record(owner.id, ACCOUNT_LIMITS.uploadBytesPerDay, new Date(Date.now() - 25 * HOUR));
    await record(owner.id, ACCOUNT_LIMITS.uploadBytesPerDay - MAX_IMAGE_BYTES, new Date(Date.now() - HOUR));
    const sign = (client: typeof owner.client, size: number) =>
      client.post('/api/objects/upload', { filename: 'auto.jpg', type: 'image/jpeg', size });
    const last = await sign(owner.client, MAX_IMAGE_BYTES);
    expect(last.status, last.text).toBe(200);
    const refused = await sign(owner.client, 1);
    expect(refused.status).toBe(429);
    expect(refused.data.message).toBe(ACCOUNT_LIMIT_MESSAGES.uploadBytes);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await em().count(Upload, { user: owner.id })).toBe(3);
    expect((await sign(other.client, MAX_IMAGE_BYTES)).status).toBe(200);
  });
});

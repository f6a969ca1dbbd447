import { randomBytes, randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  accountExportKey,
  createS3Client,
  DataExport,
  ensureBucket,
  Jury,
  juryCertificatesKey,
  Media,
  Outbox,
  runDueWork,
  SignExport,
  signExportKey,
  User,
  Vehicle,
  webAssetKey,
} from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle,
  PASSWORD,
  type TestClient,
  type TestContext,
} from '@schlosstreffen/api/testing';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, type Storage } from '../../adapters/storage.js';
import { dispatch } from '../dispatch.js';
import { createSweepOrphans } from './sweep-orphans.js';

const MINUTE = 60_000;

let t: TestContext;
let s3: S3Client;
let bucket: string;
let storage: Storage;

// A bucket of its own: the sweep looks at every upload and export in it, and the shared test bucket
// holds those of other test files, whose rows live in other databases.
beforeAll(async () => {
  t = await createTestContext({
    relay: false,
    env: { S3_BUCKET: `sweep-${randomBytes(5).toString('hex')}` },
  });
  bucket = t.config.s3.bucket;
  s3 = createS3Client(t.config.s3);
  await ensureBucket(s3, bucket);
  storage = createStorage(s3, bucket);
});
afterAll(async () => {
  if (storage) {
    await storage.deleteMany([
      ...(await storage.list('uploads/')),
      ...(await storage.list('exports/')),
      ...(await storage.list('web-assets/')),
    ]);
  }
  s3?.destroy();
  await t?.close();
});

async function exists(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as Error).name === 'NotFound') return false;
    throw error;
  }
}

const PHOTO = Buffer.from('not really a jpeg, the sweep does not look inside');

/** Signs an upload as the browser would; the PUT is left to the caller. */
async function sign(client: TestClient) {
  const signed = await client.post('/api/objects/upload', {
    filename: 'auto.jpg',
    type: 'image/jpeg',
    size: PHOTO.length,
  });
  expect(signed.status, signed.text).toBe(200);
  return signed.data as { uploadURL: string; key: string; headers: Record<string, string> };
}

async function put(signed: { uploadURL: string; headers: Record<string, string> }) {
  const res = await fetch(signed.uploadURL, { method: 'PUT', headers: signed.headers, body: PHOTO });
  expect(res.status).toBe(200);
}

describe('retention sweeps objects no row names', () => {
  it('removes an upload PUT after its account was deleted, and an export ZIP without its row', async () => {
    const leaving = await t.signIn('user');
    const staying = await t.signIn('user');
    const late = await sign(leaving.client);
    const kept = await sign(staying.client);
    await put(kept);
    const deleted = await leaving.client.post('/api/account/delete', { password: PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await t.orm.em.fork().count(User, { id: leaving.id })).toBe(0);
    // The signed URL still works for its ten minutes: the object lands after its account is gone.
    await put(late);

    const stray = accountExportKey(randomUUID());
    const named = accountExportKey(randomUUID());
    for (const key of [stray, named]) {
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'zip', ContentType: 'application/zip' }),
      );
    }
    // A chunk of the web client an api stored at its start: no row names it, and none needs to.
    const asset = webAssetKey('index-Ab12.js');
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: asset, Body: 'export {}' }));
    // An image stored before clean copies existed: its URL names the upload, no upload record does.
    const legacy = `uploads/${staying.id}/${randomUUID()}.jpg`;
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: legacy, Body: PHOTO, ContentType: 'image/jpeg' }),
    );
    const vehicle = await createVehicle(staying.client);
    const em = t.orm.em.fork();
    em.create(Media, { vehicle: em.getReference(Vehicle, vehicle.id), url: `/objects/${legacy}` });
    em.create(DataExport, {
      id: named.slice('exports/accounts/'.length, -'.zip'.length),
      user: em.getReference(User, staying.id),
      status: 'ready',
      objectKey: named,
      expiresAt: new Date(Date.now() + 7 * 24 * 60 * MINUTE),
    });
    await em.flush();

    // Retention, past the upload URL's lifetime, queues the sweep (once: a second run adds none).
    const soon = new Date(Date.now() + 11 * MINUTE);
    const schedule = {
      retention: t.config.retention,
      event: t.event,
      publicUrl: t.config.publicUrl,
      secret: t.config.sessionSecret,
    };
    await runDueWork(t.orm.em, schedule, soon);
    await runDueWork(t.orm.em, schedule, soon);
    const jobs = await t.orm.em.fork().find(Outbox, { job: 'storage.sweep' });
    expect(jobs).toHaveLength(1);

    // Run now, nothing is older than an upload URL's lifetime yet: nothing goes.
    const process = (now: Date) =>
      dispatch({ 'storage.sweep': createSweepOrphans({ em: t.orm.em, storage, now: () => now }) });
    const job = { id: jobs[0]!.id, name: 'storage.sweep', data: jobs[0]!.payload } as unknown as Job;
    expect(await process(new Date())(job)).toEqual({ status: 'swept', deleted: 0 });
    for (const key of [late.key, kept.key, stray, named, legacy]) expect(await exists(key), key).toBe(true);

    // At the moment retention ran for, the orphans go and everything a row names stays.
    expect(await process(soon)(job)).toEqual({ status: 'swept', deleted: 2 });
    expect(await exists(late.key)).toBe(false);
    expect(await exists(stray)).toBe(false);
    expect(await exists(kept.key)).toBe(true);
    expect(await exists(named)).toBe(true);
    expect(await exists(legacy)).toBe(true);
    expect(await exists(asset)).toBe(true);
    // Safe to run twice.
    expect(await process(soon)(job)).toEqual({ status: 'swept', deleted: 0 });
  });
});

describe('the sweep and the windshield signs', () => {
  it("removes a car's sign PDF once the car is gone, and keeps a sign its row names", async () => {
    const owner = await t.signIn('user');
    const kept = await createVehicle(owner.client);
    const gone = await createVehicle(owner.client);
    const em = t.orm.em.fork();
    const rows = [kept, gone].map((vehicle) =>
      em.create(SignExport, {
        id: randomUUID(),
        edition: t.event.edition.id,
        format: 'a4',
        vehicle: em.getReference(Vehicle, vehicle.id),
        status: 'ready',
      }),
    );
    await em.flush();
    const [keptKey, goneKey] = rows.map((row) => signExportKey(row.id));
    for (const key of [keptKey!, goneKey!]) {
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: '%PDF-', ContentType: 'application/pdf' }),
      );
    }
    // The car is deleted: its sign's row goes with it.
    await t.orm.em.fork().nativeDelete(Vehicle, { id: gone.id });
    expect(await t.orm.em.fork().count(SignExport, { id: rows[1]!.id })).toBe(0);

    const soon = new Date(Date.now() + 11 * MINUTE);
    const sweep = dispatch({
      'storage.sweep': createSweepOrphans({ em: t.orm.em, storage, now: () => soon }),
    });
    const job = {
      id: randomUUID(),
      name: 'storage.sweep',
      data: { before: soon.toISOString() },
    } as unknown as Job;
    expect(await sweep(job)).toEqual({ status: 'swept', deleted: 1 });
    expect(await exists(goneKey!)).toBe(false);
    expect(await exists(keptKey!)).toBe(true);
  });
});

describe('the sweep and the jury certificates', () => {
  it('removes a print file its jury row does not name, and keeps the one it does', async () => {
    const em = t.orm.em.fork();
    const editionId = t.event.edition.id;
    const keptKey = juryCertificatesKey(editionId, 2);
    const strayKey = juryCertificatesKey(editionId, 1);
    await em.nativeDelete(Jury, { edition: editionId });
    em.create(Jury, { edition: editionId, version: 2, certificatesKey: keptKey });
    await em.flush();
    for (const key of [keptKey, strayKey]) {
      await s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: '%PDF-', ContentType: 'application/pdf' }),
      );
    }
    const soon = new Date(Date.now() + 11 * MINUTE);
    const sweep = dispatch({
      'storage.sweep': createSweepOrphans({ em: t.orm.em, storage, now: () => soon }),
    });
    const job = {
      id: randomUUID(),
      name: 'storage.sweep',
      data: { before: soon.toISOString() },
    } as unknown as Job;
    expect(await sweep(job)).toEqual({ status: 'swept', deleted: 1 });
    expect(await exists(strayKey)).toBe(false);
    expect(await exists(keptKey)).toBe(true);
  });
});

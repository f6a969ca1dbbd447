/**
 * A car's link preview end to end: the owner's photo is cleaned, the car confirmed and given its
 * number by the real worker, which draws the 1200×630 preview into the embedded S3 server and records
 * it on the car's list row; the car's page names it, anyone may load it, and it goes when the owner
 * withdraws the consent to show the car.
 */
import { randomUUID } from 'node:crypto';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  Invitation,
  Media,
  PublicVehicle,
  shareImageTask,
  Upload,
} from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle,
  type TestClient,
  type TestContext,
} from '@schlosstreffen/api/testing';
import type { CarPage, Consent } from '@schlosstreffen/shared/api';
import type { Job } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { createStorage, type Storage } from '../../adapters/storage.js';
import { gradientJpeg } from '../../test-photos.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import type { RunningWorkers } from '../../worker.js';
import { dispatch } from '../dispatch.js';
import { createRenderShareImage, SHARE_IMAGE_DRAWING, SHARE_IMAGE_SIZE } from './render-share-image.js';

const WORKER_TIMEOUT = { timeout: 30_000, interval: 100 };

let t: TestContext;
let s3: S3Client;
let storage: Storage;
let mailer: Mailer;
let running: RunningWorkers;
let admin: TestClient;
let owner: { client: TestClient; id: string };

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  storage = createStorage(s3, t.config.s3.bucket);
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  admin = (await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' })).client;
  owner = await t.signIn('user', { firstName: 'Jürgen', lastName: 'Größmann' });
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});

/** Attaches a photo as the browser does (signed upload, then POST …/media); returns the media id. */
async function attachPhoto(vehicleId: string, data: Buffer): Promise<string> {
  const key = `uploads/${owner.id}/${randomUUID()}.jpg`;
  await s3.send(
    new PutObjectCommand({ Bucket: t.config.s3.bucket, Key: key, Body: data, ContentType: 'image/jpeg' }),
  );
  await t.orm.em.fork().insert(Upload, {
    key,
    user: owner.id,
    contentType: 'image/jpeg',
    size: data.length,
    createdAt: new Date(),
  });
  const attached = await owner.client.post(`/api/vehicles/${vehicleId}/media`, {
    type: 'image',
    url: `/objects/${key}`,
  });
  expect(attached.status, attached.text).toBe(201);
  return attached.data.id as string;
}

const recordedKey = async (vehicleId: string) =>
  (await t.orm.em.fork().findOne(PublicVehicle, { vehicle: vehicleId }))?.shareImage ?? null;

const render = (vehicleId: string) =>
  dispatch({ 'share-image.render': createRenderShareImage({ em: t.orm.em, storage }) })({
    id: randomUUID(),
    name: 'share-image.render',
    data: { vehicleId },
    updateProgress: async () => undefined,
  } as unknown as Job);

describe("a car's link preview", () => {
  let vehicleId: string;
  let mediaId: string;
  let key: string;

  it(
    'is drawn once the car is confirmed and holds its number: 1200×630 JPEG, named by its page',
    { timeout: 60_000 },
    async () => {
      vehicleId = (await createVehicle(owner.client, { name: 'Roter Baron', status: 'submitted' })).id;
      mediaId = await attachPhoto(vehicleId, await gradientJpeg(1600, 1000, { blue: 40 }));
      await expect
        .poll(async () => (await t.orm.em.fork().findOne(Media, mediaId))?.thumbnailUrl, WORKER_TIMEOUT)
        .toBeTruthy();
      const invited = await admin.patch(`/api/admin/vehicles/${vehicleId}/status`, {
        status: 'invited',
        oldStatus: 'submitted',
      });
      expect(invited.status, invited.text).toBe(200);
      // The worker issues the invitation (its start number); the owner accepts it.
      await expect
        .poll(
          async () => (await t.orm.em.fork().findOne(Invitation, { vehicle: vehicleId }))?.startNumber,
          WORKER_TIMEOUT,
        )
        .toBeTruthy();
      expect(await recordedKey(vehicleId)).toBeNull();
      const confirmed = await owner.client.patch(`/api/vehicles/${vehicleId}`, { status: 'confirmed' });
      expect(confirmed.status, confirmed.text).toBe(200);
      await expect.poll(() => recordedKey(vehicleId), WORKER_TIMEOUT).toMatch(/^share\//);
      key = (await recordedKey(vehicleId))!;

      const stored = await storage.get(key, 10 * 1024 * 1024);
      expect(await sharp(stored).metadata()).toMatchObject({ format: 'jpeg', ...SHARE_IMAGE_SIZE });

      const startNumber = (
        await t.orm.em
          .getConnection()
          .execute<{ n: number }[]>(`select start_number as n from invitation where vehicle_id = ?`, [
            vehicleId,
          ])
      )[0]!.n;
      const page = await t.client().get(`/api/editions/${t.event.edition.year}/vehicles/${startNumber}`);
      expect((page.data as CarPage).shareImageUrl).toBe(`/objects/${key}`);

      // Anyone may load it, as a link preview's crawler does.
      const served = await fetch(new URL(`/objects/${key}`, t.baseUrl));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/jpeg');
      const decoded = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(decoded).toMatchObject({ width: 1200, height: 630 });
    },
  );

  it('is left as it is when the job runs again', async () => {
    expect(await render(vehicleId)).toEqual({ status: 'current', key });
  });

  it('is drawn anew under a new key when the owner frames the photo otherwise, the old one deleted', async () => {
    const cropped = await owner.client.patch(`/api/vehicles/${vehicleId}/media`, {
      updates: [{ id: mediaId, cropX: 10, cropY: 70, scale: 180 }],
    });
    expect(cropped.status, cropped.text).toBe(200);
    await expect.poll(() => recordedKey(vehicleId), WORKER_TIMEOUT).not.toBe(key);
    await expect.poll(() => storage.get(key, 10 * 1024 * 1024), WORKER_TIMEOUT).toBeUndefined();
    key = (await recordedKey(vehicleId))!;
  });

  it('is drawn anew when its meeting is renamed, and its key names the drawing', async () => {
    const year = t.event.edition.year;
    const renamed = await admin.patch(`/api/admin/editions/${year}`, {
      name: `Schlosstreffen am See ${year}`,
    });
    expect(renamed.status, renamed.text).toBe(200);
    await expect.poll(() => recordedKey(vehicleId), WORKER_TIMEOUT).not.toBe(key);
    await expect.poll(() => storage.get(key, 10 * 1024 * 1024), WORKER_TIMEOUT).toBeUndefined();
    key = (await recordedKey(vehicleId))!;
    const task = (await shareImageTask(t.orm.em.fork(), vehicleId, SHARE_IMAGE_DRAWING))!;
    expect(task.source.edition.name).toBe(`Schlosstreffen am See ${year}`);
    expect(task.key).toBe(key);
    expect(await render(vehicleId)).toEqual({ status: 'current', key });
    // Another drawing: every stored preview's key is out of date (share-images:redraw draws them anew).
    expect((await shareImageTask(t.orm.em.fork(), vehicleId, `${SHARE_IMAGE_DRAWING} next`))!.key).not.toBe(
      key,
    );
  });

  it('goes when the owner withdraws the consent to show the car', async () => {
    const consents = (await owner.client.get(`/api/vehicles/${vehicleId}/consents`)).data as Consent[];
    const media = consents.find((consent) => consent.kind === 'media' && !consent.withdrawnAt)!;
    const withdrawn = await owner.client.post(`/api/account/consents/${media.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect((await fetch(new URL(`/objects/${key}`, t.baseUrl))).status).toBe(404);
    await expect.poll(() => storage.get(key, 10 * 1024 * 1024), WORKER_TIMEOUT).toBeUndefined();
    expect(await render(vehicleId)).toEqual({ status: 'unlisted' });
  });
});

/**
 * The print photo of a quartett card end to end: the owner attaches and crops a photo through the
 * API, the outbox relay hands the jobs to the real BullMQ worker, which writes the print photo into
 * the embedded S3 server; the export places it as it is, and prepares a missing or stale one itself.
 */
import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  Media,
  printPhotoKey,
  QuartettSet,
  recordRenditions,
  renditionKey,
  Upload,
} from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle,
  type TestClient,
  type TestContext,
} from '@schlosstreffen/api/testing';
import type { Job } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { createStorage, type Storage } from '../../adapters/storage.js';
import { gradientJpeg } from '../../test-photos.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import type { RunningWorkers } from '../../worker.js';
import { dispatch } from '../dispatch.js';
import { createExportQuartett, type QuartettExportResult } from '../quartett-export/export-quartett.js';
import { PHOTO_PIXELS, PRINT_PHOTO_META, printPhotoFingerprint } from '../quartett-export/pdf/photo.js';
import { createPreparePrintPhoto } from './prepare-print-photo.js';

const WORKER_TIMEOUT = { timeout: 30_000, interval: 100 };

let t: TestContext;
let s3: S3Client;
let storage: Storage;
let bucket: string;
let mailer: Mailer;
let running: RunningWorkers;
let admin: TestClient;
let owner: { client: TestClient; id: string };

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  bucket = t.config.s3.bucket;
  storage = createStorage(s3, bucket);
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
beforeEach(() => t.resetRateLimits());

/** The stored print photo's fingerprint, or undefined while there is none. */
async function storedFingerprint(mediaId: string): Promise<string | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: printPhotoKey(mediaId) }));
    return head.Metadata?.[PRINT_PHOTO_META];
  } catch (error) {
    if ((error as Error).name === 'NotFound') return undefined;
    throw error;
  }
}

const fingerprintOf = (mediaId: string, crop: { cropX: number; cropY: number; scale: number }) =>
  printPhotoFingerprint({ mediaId, ...crop });

/** Attaches a photo as the browser does (signed upload, then POST …/media); returns the media id. */
async function attachPhoto(vehicleId: string, data: Buffer): Promise<string> {
  const key = `uploads/${owner.id}/${randomUUID()}.jpg`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: 'image/jpeg' }));
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

async function confirm(vehicleId: string) {
  const res = await admin.patch(`/api/admin/vehicles/${vehicleId}/status`, {
    status: 'confirmed',
    oldStatus: 'submitted',
  });
  expect(res.status, res.text).toBe(200);
}

async function runExport(): Promise<{ result: QuartettExportResult; pdf: Buffer }> {
  const em = t.orm.em.fork();
  const set = em.create(QuartettSet, { edition: t.event.edition.id, title: `Test ${randomUUID()}` });
  await em.flush();
  const process = dispatch({
    'quartett.export': createExportQuartett({ em: t.orm.em, storage, eventName: 'Schlosstreffen' }),
  });
  const job = {
    id: randomUUID(),
    name: 'quartett.export',
    data: { setId: set.id },
    updateProgress: async () => undefined,
  } as unknown as Job;
  const result = (await process(job)) as QuartettExportResult;
  if (result.status !== 'done') throw new Error(`export ${result.status}`);
  const pdf = await storage.get(result.key, 100 * 1024 * 1024);
  return { result, pdf: pdf! };
}

const prepare = (vehicleId: string) =>
  dispatch({ 'quartett.print-photo': createPreparePrintPhoto({ em: t.orm.em, storage }) })({
    id: randomUUID(),
    name: 'quartett.print-photo',
    data: { vehicleId },
    updateProgress: async () => undefined,
  } as unknown as Job);

describe('the print photo of a quartett card', () => {
  let vehicleId: string;
  let mediaId: string;

  it('is not made for an application, only once the vehicle is confirmed', async () => {
    vehicleId = (await createVehicle(owner.client, { name: 'Blauer Blitz', status: 'submitted' })).id;
    mediaId = await attachPhoto(vehicleId, await gradientJpeg(1600, 1000, { blue: 40 }));
    await expect
      .poll(async () => (await t.orm.em.fork().findOne(Media, mediaId))?.thumbnailUrl, WORKER_TIMEOUT)
      .toBeTruthy();
    // The outbox has handed on every job of the attach, and none of them is a print photo (the
    // application's mails carry its id too, and are not of the attach).
    const queued = await t.orm.em
      .fork()
      .getConnection()
      .execute<{ job: string }[]>(
        `select job from outbox
          where (payload->>'vehicleId' = ? or payload->>'mediaId' = ?) and job <> 'email.send'`,
        [vehicleId, mediaId],
      );
    expect(queued.map((row) => row.job)).toEqual(['media.thumbnail']);
    expect(await storedFingerprint(mediaId)).toBeUndefined();
    await confirm(vehicleId);
  });

  it('is written once the vehicle is confirmed, at print size, and served to nobody', async () => {
    await expect
      .poll(() => storedFingerprint(mediaId), WORKER_TIMEOUT)
      .toBe(fingerprintOf(mediaId, { cropX: 50, cropY: 50, scale: 100 }));
    const data = await storage.get(printPhotoKey(mediaId), 10 * 1024 * 1024);
    const meta = await sharp(data).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', ...PHOTO_PIXELS });

    for (const client of [undefined, owner.client, admin]) {
      const response = await fetch(new URL(`/objects/${printPhotoKey(mediaId)}`, t.baseUrl), {
        headers: client ? { cookie: client.cookieHeader } : {},
      });
      expect(response.status).toBe(404);
    }
  });

  it('is made again when the owner changes the crop or zoom', async () => {
    const before = await storage.get(printPhotoKey(mediaId), 10 * 1024 * 1024);
    const cropped = await owner.client.patch(`/api/vehicles/${vehicleId}/media`, {
      updates: [{ id: mediaId, cropX: 10, cropY: 70, scale: 180 }],
    });
    expect(cropped.status, cropped.text).toBe(200);
    await expect
      .poll(() => storedFingerprint(mediaId), WORKER_TIMEOUT)
      .toBe(fingerprintOf(mediaId, { cropX: 10, cropY: 70, scale: 180 }));
    const after = await storage.get(printPhotoKey(mediaId), 10 * 1024 * 1024);
    expect(after!.equals(before!)).toBe(false);
    // Run again, it leaves the current one as it is.
    expect(await prepare(vehicleId)).toEqual({ status: 'current', mediaId });
  });

  it('follows the hero: a new hero gets one, the old hero loses its own', async () => {
    const second = await attachPhoto(vehicleId, await gradientJpeg(1200, 900, { blue: 200 }));
    await expect
      .poll(async () => (await t.orm.em.fork().findOne(Media, second))?.thumbnailUrl, WORKER_TIMEOUT)
      .toBeTruthy();
    const hero = await owner.client.patch(`/api/vehicles/${vehicleId}/media`, {
      updates: [{ id: second, isHero: true }],
    });
    expect(hero.status, hero.text).toBe(200);
    await expect
      .poll(() => storedFingerprint(second), WORKER_TIMEOUT)
      .toBe(fingerprintOf(second, { cropX: 50, cropY: 50, scale: 100 }));
    await expect.poll(() => storedFingerprint(mediaId), WORKER_TIMEOUT).toBeUndefined();

    const back = await owner.client.patch(`/api/vehicles/${vehicleId}/media`, {
      updates: [{ id: mediaId, isHero: true }],
    });
    expect(back.status, back.text).toBe(200);
    await expect
      .poll(() => storedFingerprint(mediaId), WORKER_TIMEOUT)
      .toBe(fingerprintOf(mediaId, { cropX: 10, cropY: 70, scale: 180 }));
  });

  it('is placed by the export as it is; a stale one is prepared there and then made again', async () => {
    // A recognisable stand-in with the right fingerprint: the PDF must hold exactly these bytes.
    const marker = await sharp({
      create: { ...PHOTO_PIXELS, channels: 3, background: { r: 200, g: 30, b: 30 } },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    await storage.put(printPhotoKey(mediaId), marker, {
      contentType: 'image/jpeg',
      metadata: { [PRINT_PHOTO_META]: fingerprintOf(mediaId, { cropX: 10, cropY: 70, scale: 180 }) },
    });

    const placed = await runExport();
    expect(placed.result).toMatchObject({ cardCount: 1, preparedHere: 0 });
    expect(placed.pdf.includes(marker)).toBe(true);

    // The crop changes without its job having run yet: the export does not use the stale photo.
    await t.orm.em.fork().nativeUpdate(Media, { id: mediaId }, { cropX: '30.00' });
    const stale = await runExport();
    expect(stale.result).toMatchObject({ cardCount: 1, preparedHere: 1 });
    expect(stale.pdf.includes(marker)).toBe(false);

    // The job brings it up to date; the export then places it.
    expect(await prepare(vehicleId)).toMatchObject({ status: 'done', mediaId });
    expect(await storedFingerprint(mediaId)).toBe(
      fingerprintOf(mediaId, { cropX: 30, cropY: 70, scale: 180 }),
    );
    const redone = await runExport();
    expect(redone.result).toMatchObject({ cardCount: 1, preparedHere: 0 });
    expect(redone.pdf.includes((await storage.get(printPhotoKey(mediaId), 10 * 1024 * 1024))!)).toBe(true);
  });

  it('a missing one is prepared by the export from the rendition', async () => {
    await storage.deleteMany([printPhotoKey(mediaId)]);
    const { result, pdf } = await runExport();
    expect(result).toMatchObject({ cardCount: 1, preparedHere: 1 });
    expect(pdf.includes(Buffer.from('/Subtype /Image'))).toBe(true);
    expect(await prepare(vehicleId)).toMatchObject({ status: 'done', mediaId });
  });

  it('is deleted with its image', async () => {
    // The vehicle is confirmed, so the set's lock is not in the way; released sets are not.
    expect(await storedFingerprint(mediaId)).toBeDefined();
    const removed = await owner.client.delete(`/api/vehicles/${vehicleId}/media/${mediaId}`);
    expect(removed.status, removed.text).toBe(204);
    await expect.poll(() => storedFingerprint(mediaId), WORKER_TIMEOUT).toBeUndefined();
    await expect
      .poll(async () => (await storage.get(renditionKey(mediaId, 1280), 10 * 1024 * 1024)) ?? null)
      .toBeNull();
  });
});

describe('an image whose renditions are recorded', () => {
  /** A media row waiting for its renditions, the vehicle's only image and not its hero. */
  async function waitingImage(vehicleId: string): Promise<string> {
    const id = randomUUID();
    await t.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into media (id, vehicle_id, type, url, upload_key, is_hero, priority, approval_status, created_at)
         values (?, ?, 'image', ?, ?, false, 0, 'auto', now())`,
        [id, vehicleId, `/objects/media/${id}/full.jpg`, `uploads/${owner.id}/${id}.jpg`],
      );
    return id;
  }
  const printPhotoJobs = (vehicleId: string) =>
    t.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string }[]>(
        `select id from outbox where job = 'quartett.print-photo' and payload->>'vehicleId' = ?`,
        [vehicleId],
      );

  it('queues the print photo when it becomes a confirmed vehicle’s card, and not an application’s', async () => {
    const application = (await createVehicle(owner.client, { status: 'submitted' })).id;
    const confirmed = (await createVehicle(owner.client, { status: 'submitted' })).id;
    await confirm(confirmed);
    const queuedAtConfirmation = (await printPhotoJobs(confirmed)).length;
    expect(queuedAtConfirmation).toBe(1);

    const dimensions = { width: 1600, height: 1000, fileSize: 1234 };
    expect(await recordRenditions(t.orm.em, await waitingImage(application), dimensions)).toBe(true);
    expect(await printPhotoJobs(application)).toEqual([]);

    const card = await waitingImage(confirmed);
    expect(await recordRenditions(t.orm.em, card, dimensions)).toBe(true);
    expect((await printPhotoJobs(confirmed)).length).toBe(queuedAtConfirmation + 1);
    const row = await t.orm.em.fork().findOneOrFail(Media, card);
    expect(row).toMatchObject({ uploadKey: null, width: 1600, height: 1000, fileSize: 1234 });
    expect(row.thumbnailUrl).toBe(`/objects/${renditionKey(card, 480)}`);
  });
});

import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  enqueue,
  Media,
  fullKey,
  objectPathOf,
  PublicVehicle,
  renditionKey,
  User,
  Vehicle,
} from '@schlosstreffen/api/core';
import { createTestContext, registerUser, type TestContext } from '@schlosstreffen/api/testing';
import { IMAGE_REJECTION_REASONS, THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { createStorage, type Storage } from '../../adapters/storage.js';
import type { RunningWorkers } from '../../worker.js';
import { startTestWorkers } from '../../testing.js';
import { gradientJpeg, hasGpsIfd, phoneJpeg, RED } from '../../test-photos.js';
import { dispatch } from '../dispatch.js';
import { cleanJpeg } from './jpeg-clean.js';
import { createRenderThumbnails } from './render-thumbnails.js';

let t: TestContext;
let s3: S3Client;
let bucket: string;
let storage: Storage;
let userId: string;
let running: RunningWorkers | undefined;

beforeAll(async () => {
  t = await createTestContext();
  s3 = createS3Client(t.config.s3);
  bucket = t.config.s3.bucket;
  storage = createStorage(s3, bucket);
  const { user } = await registerUser(t.client());
  userId = user.id as string;
});
afterEach(async () => {
  await running?.close();
  running = undefined;
});
afterAll(async () => {
  s3?.destroy();
  await t?.close();
});

/** A valid 1×1 PNG whose header claims 10000×10000 pixels (100 MP): a decompression bomb's shape. */
async function pixelBombPng(): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: RED } })
      .png()
      .toBuffer(),
  );
  // Signature (8) + IHDR length (4) + type (4), then width and height; the CRC covers type and data.
  png.writeUInt32BE(10_000, 16);
  png.writeUInt32BE(10_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

async function putObject(key: string, body: Buffer, contentType: string) {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

/** A confirmed vehicle of the test user with one image whose original lies at uploads/{userId}/…. */
async function createMedia(body: Buffer, contentType = 'image/jpeg') {
  const key = `uploads/${userId}/${randomUUID()}.jpg`;
  await putObject(key, body, contentType);
  const em = t.orm.em.fork();
  const vehicle = em.create(Vehicle, {
    edition: t.event.edition.id,
    user: em.getReference(User, userId),
    title: 'BMW M3',
    brand: 'BMW',
    model: 'M3',
    year: 2004,
    ps: 343,
    weightKg: 1570,
    topSpeedKmh: 250,
    zeroToHundredS: 5.2,
    status: 'confirmed',
  });
  // As attaching does: the url names the clean copy, the upload waits in uploadKey.
  const id = randomUUID();
  const media = em.create(Media, { id, vehicle, url: objectPathOf(fullKey(id, 'jpg')), uploadKey: key });
  await em.flush();
  return { key, mediaId: media.id, vehicleId: vehicle.id, fullKey: fullKey(id, 'jpg') };
}

const jobOf = (data: unknown) => ({ id: randomUUID(), name: 'media.thumbnail', data }) as unknown as Job;
const mediaRow = (id: string) => t.orm.em.fork().findOne(Media, { id });
const publicMedia = async (vehicleId: string) =>
  (await t.orm.em.fork().findOne(PublicVehicle, { vehicle: vehicleId }))?.data.media;

async function head(key: string) {
  try {
    return await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  } catch (error) {
    if ((error as Error).name === 'NotFound') return undefined;
    throw error;
  }
}

async function download(key: string): Promise<Buffer> {
  const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

async function pixel(image: Buffer, x: number, y: number) {
  const [r = 0, g = 0, b = 0] = await sharp(image)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer();
  return { r, g, b };
}
/** A done job's stage timings: every stage measured. */
const STAGES = Object.fromEntries(
  ['task', 'read', 'render', 'store', 'record', 'cleanup'].map((stage) => [stage, expect.any(Number)]),
);

const isRed = (c: { r: number; b: number }) => c.r > 150 && c.b < 100;
const isBlue = (c: { r: number; b: number }) => c.b > 150 && c.r < 100;

describe('media.thumbnail', () => {
  it('writes a clean full-size copy and WebP renditions, oriented, without metadata; deletes the upload', async () => {
    const photo = await phoneJpeg();
    const source = await sharp(photo).metadata();
    expect(source).toMatchObject({ format: 'jpeg', width: 2000, height: 1000, orientation: 6 });
    expect(hasGpsIfd(source.exif!)).toBe(true);

    const { key, mediaId, vehicleId, fullKey: full } = await createMedia(photo);
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    const job = jobOf({ mediaId });
    const clean = await (async () => {
      const result = await process(job);
      const stored = await download(full);
      expect(result).toEqual({
        status: 'done',
        width: 1000,
        height: 2000,
        fileSize: stored.length,
        ms: STAGES,
      });
      return stored;
    })();

    const media = await mediaRow(mediaId);
    expect(media).toMatchObject({
      width: 1000,
      height: 2000,
      fileSize: clean.length,
      uploadKey: null,
      approvalStatus: 'auto',
      rejectionReason: null,
      thumbnailUrl: `/objects/thumbs/${mediaId}/480.webp`,
    });
    // Only the clean copies stay: the upload with its GPS position is gone.
    expect(await head(key)).toBeUndefined();
    const cleanMeta = await sharp(clean).metadata();
    expect(cleanMeta).toMatchObject({ format: 'jpeg', width: 1000, height: 2000 });
    for (const block of ['exif', 'xmp', 'iptc', 'orientation', 'comments'] as const) {
      expect(cleanMeta[block], block).toBeUndefined();
    }
    expect(isRed(await pixel(clean, 500, 10))).toBe(true);
    expect(isBlue(await pixel(clean, 500, 1990))).toBe(true);
    expect((await head(full))?.ContentType).toBe('image/jpeg');

    for (const width of THUMBNAIL_WIDTHS) {
      const key = renditionKey(mediaId, width);
      const stored = await head(key);
      expect(stored?.ContentType).toBe('image/webp');
      expect(stored?.CacheControl).toBe('public, max-age=31536000, immutable');
      const rendition = await download(key);
      const meta = await sharp(rendition).metadata();
      // Portrait after rotation; never wider than the oriented original (1000 px).
      const expectedWidth = Math.min(width, 1000);
      expect(meta).toMatchObject({ format: 'webp', width: expectedWidth, height: expectedWidth * 2 });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      // Rotated clockwise: the stored left (red) half is on top.
      expect(isRed(await pixel(rendition, expectedWidth / 2, 10))).toBe(true);
      expect(isBlue(await pixel(rendition, expectedWidth / 2, expectedWidth * 2 - 10))).toBe(true);
    }

    // The public list's read model carries the thumbnail.
    expect((await publicMedia(vehicleId))?.[0]?.thumbnailUrl).toBe(media?.thumbnailUrl);

    // A re-delivered job finds the thumbnail and does nothing.
    expect(await process(job)).toEqual({ status: 'skipped' });
    expect(await process(jobOf({ mediaId: randomUUID() }))).toEqual({ status: 'skipped' });
    await expect(process(jobOf({ mediaId: 'kein-uuid' }))).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it.each([
    [
      'a text file',
      () => Buffer.from('Hallo, ich bin nur Text und kein Foto.\n'),
      IMAGE_REJECTION_REASONS.invalid,
    ],
    ['a truncated JPEG', async () => (await phoneJpeg()).subarray(0, 6000), IMAGE_REJECTION_REASONS.invalid],
    [
      'an SVG',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      IMAGE_REJECTION_REASONS.unsupported,
    ],
  ])('refuses %s stored as image/jpeg and deletes it', async (_label, makeBody, reason) => {
    const { key, mediaId, vehicleId } = await createMedia(await makeBody());
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    const job = jobOf({ mediaId });
    expect(await process(job)).toEqual({ status: 'rejected', reason });

    expect(await mediaRow(mediaId)).toMatchObject({
      approvalStatus: 'rejected',
      rejectionReason: reason,
      thumbnailUrl: null,
      width: null,
      height: null,
    });
    expect(await head(key)).toBeUndefined();
    expect(await storage.list(`thumbs/${mediaId}/`)).toEqual([]);
    expect(await publicMedia(vehicleId)).toEqual([]);
    // Re-delivery changes nothing.
    expect(await process(job)).toEqual({ status: 'skipped' });
  });

  it('keeps an upright JPEG’s pixels in its full-size copy, without its metadata', async () => {
    const photo = await gradientJpeg(1600, 1200, { gps: true });
    expect(hasGpsIfd((await sharp(photo).metadata()).exif!)).toBe(true);
    const { key, mediaId, fullKey: full } = await createMedia(photo);
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    const clean = await (async () => {
      const result = await process(jobOf({ mediaId }));
      const stored = await download(full);
      expect(result).toEqual({
        status: 'done',
        width: 1600,
        height: 1200,
        fileSize: stored.length,
        ms: STAGES,
      });
      return stored;
    })();
    expect(await head(key)).toBeUndefined();
    const cleanMeta = await sharp(clean).metadata();
    expect(cleanMeta).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
    for (const block of ['exif', 'xmp', 'iptc', 'icc', 'orientation', 'comments'] as const) {
      expect(cleanMeta[block], block).toBeUndefined();
    }
    expect(clean.toString('latin1')).not.toContain('Testkamera');
    // Not re-encoded: the very pixels of the upload.
    const [kept, uploaded] = await Promise.all([clean, photo].map((image) => sharp(image).raw().toBuffer()));
    expect(kept!.equals(uploaded!)).toBe(true);
    for (const width of THUMBNAIL_WIDTHS) {
      const meta = await sharp(await download(renditionKey(mediaId, width))).metadata();
      expect(meta).toMatchObject({ format: 'webp', width, height: (width * 3) / 4 });
      expect(meta.exif).toBeUndefined();
    }
  });

  it('keeps an upright JPEG with an sRGB profile losslessly; converts one with another profile', async () => {
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    const plain = await gradientJpeg(800, 600, { gps: true });
    for (const profile of ['srgb', 'p3'] as const) {
      const photo = await sharp(plain).withIccProfile(profile).jpeg({ quality: 90 }).toBuffer();
      expect((await sharp(photo).metadata()).icc).toBeDefined();
      const { mediaId, fullKey: full } = await createMedia(photo);
      expect(await process(jobOf({ mediaId }))).toMatchObject({ status: 'done', width: 800, height: 600 });
      const clean = await download(full);
      const meta = await sharp(clean).metadata();
      for (const block of ['exif', 'xmp', 'iptc', 'icc', 'orientation', 'comments'] as const) {
        expect(meta[block], `${profile} ${block}`).toBeUndefined();
      }
      // sRGB: the upload's own coding without its metadata; P3: re-encoded in sRGB.
      expect(clean.equals(cleanJpeg(photo)!), profile).toBe(profile === 'srgb');
    }
  });

  it('jobs for several images of one vehicle at once leave every thumbnail in the public list', async () => {
    const { vehicleId } = await createMedia(await phoneJpeg());
    const em = t.orm.em.fork();
    const vehicle = await em.findOneOrFail(Vehicle, vehicleId);
    const extra = [];
    for (let i = 0; i < 4; i++) {
      const key = `uploads/${userId}/${randomUUID()}.jpg`;
      await putObject(key, await phoneJpeg(), 'image/jpeg');
      const id = randomUUID();
      extra.push(
        em.create(Media, {
          id,
          vehicle,
          url: objectPathOf(fullKey(id, 'jpg')),
          uploadKey: key,
          priority: i + 1,
        }),
      );
    }
    await em.flush();
    const ids = (await em.find(Media, { vehicle: vehicleId })).map((media) => media.id);
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    await Promise.all(ids.map((mediaId) => process(jobOf({ mediaId }))));
    const listed = await publicMedia(vehicleId);
    expect(listed).toHaveLength(5);
    expect(listed!.every((media) => media.thumbnailUrl?.endsWith('/480.webp'))).toBe(true);
  });

  it('refuses an image whose header claims more than 50 megapixels', async () => {
    const bomb = await pixelBombPng();
    expect(bomb.length).toBeLessThan(200);
    const { key, mediaId } = await createMedia(bomb, 'image/png');
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    expect(await process(jobOf({ mediaId }))).toEqual({
      status: 'rejected',
      reason: 'Das Bild hat zu viele Pixel: Erlaubt sind höchstens 50 Megapixel.',
    });
    expect(await mediaRow(mediaId)).toMatchObject({
      approvalStatus: 'rejected',
      rejectionReason: IMAGE_REJECTION_REASONS.tooManyPixels,
    });
    expect(await head(key)).toBeUndefined();
  });

  it('refuses a media row whose original is gone', async () => {
    const { key, mediaId } = await createMedia(await phoneJpeg());
    await storage.deleteMany([key]);
    const process = dispatch({ 'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage }) });
    expect(await process(jobOf({ mediaId }))).toEqual({
      status: 'rejected',
      reason: IMAGE_REJECTION_REASONS.missing,
    });
    expect((await mediaRow(mediaId))?.approvalStatus).toBe('rejected');
  });

  it('removes its renditions when the media row is deleted while the job runs', async () => {
    const { mediaId } = await createMedia(await phoneJpeg());
    // The owner deletes the image right after the first rendition was written.
    const racing: Storage = {
      ...storage,
      async put(key, body, options) {
        await storage.put(key, body, options);
        await t.orm.em.fork().nativeDelete(Media, { id: mediaId });
      },
    };
    const process = dispatch({
      'media.thumbnail': createRenderThumbnails({ em: t.orm.em, storage: racing }),
    });
    expect(await process(jobOf({ mediaId }))).toEqual({ status: 'skipped' });
    expect(await storage.list(`thumbs/${mediaId}/`)).toEqual([]);
  });
});

describe('media queue end to end', () => {
  it('an outbox row becomes a thumbnail; a refused file completes without retry', async () => {
    const unusedMailer: Mailer = {
      send: () => Promise.reject(new Error('no mail in this test')),
      close: () => undefined,
    };
    running = startTestWorkers(t, { mailer: unusedMailer, s3 });
    const good = await createMedia(await phoneJpeg());
    const bad = await createMedia(Buffer.from('kein Bild'));
    const [, badRow] = await t.orm.em
      .fork()
      .transactional(async (em) => [
        enqueue(em, 'media.thumbnail', { mediaId: good.mediaId }),
        enqueue(em, 'media.thumbnail', { mediaId: bad.mediaId }),
      ]);
    t.relay.wake();

    await expect
      .poll(async () => (await mediaRow(good.mediaId))?.thumbnailUrl, { timeout: 15_000 })
      .toBe(objectPathOf(renditionKey(good.mediaId, 480)));
    expect(await head(renditionKey(good.mediaId, 1280))).toBeDefined();

    await expect
      .poll(async () => (await t.queues.media.getJob(badRow!.id))?.getState(), { timeout: 15_000 })
      .toBe('completed');
    const badJob = await t.queues.media.getJob(badRow!.id);
    expect(badJob?.returnvalue).toEqual({ status: 'rejected', reason: IMAGE_REJECTION_REASONS.invalid });
    expect(badJob?.failedReason).toBeFalsy();
    expect((await mediaRow(bad.mediaId))?.approvalStatus).toBe('rejected');
  });
});

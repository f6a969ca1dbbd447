import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  enqueue,
  Media,
  objectPathOf,
  PublicVehicle,
  User,
  Vehicle,
} from '@schlosstreffen/api/db';
import { createTestContext, registerUser, type TestContext } from '@schlosstreffen/api/testing';
import { IMAGE_REJECTION_REASONS, THUMBNAIL_WIDTHS, thumbnailKey } from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../adapters/mailer.js';
import { createStorage, type Storage } from '../adapters/storage.js';
import type { RunningWorkers } from '../worker.js';
import { startTestWorkers } from '../testing.js';
import { createStorageDeleteProcessor } from './storage-delete.js';
import { createThumbnailProcessor } from './thumbnail.js';

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

const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };

/**
 * A 2000×1000 JPEG, left half red and right half blue, with EXIF orientation 6 (display rotated 90°
 * clockwise: the stored left edge becomes the top) and GPS tags.
 */
async function phoneJpeg(): Promise<Buffer> {
  const red = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: RED } })
    .png()
    .toBuffer();
  const canvas = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: BLUE } })
    .composite([{ input: red, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return sharp(canvas)
    .withExif({
      IFD0: { Make: 'Testkamera', Model: 'T1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 8/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '11/1 34/1 0/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Whether IFD0 of an EXIF block points to a GPS IFD (tag 0x8825). */
function hasGpsIfd(exif: Buffer): boolean {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  for (let i = 0; i < u16(ifd0); i += 1) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

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
  const media = em.create(Media, { vehicle, url: objectPathOf(key) });
  await em.flush();
  return { key, mediaId: media.id, vehicleId: vehicle.id };
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
const isRed = (c: { r: number; b: number }) => c.r > 150 && c.b < 100;
const isBlue = (c: { r: number; b: number }) => c.b > 150 && c.r < 100;

describe('media.thumbnail', () => {
  it('writes oriented WebP renditions without metadata and records the size', async () => {
    const photo = await phoneJpeg();
    const source = await sharp(photo).metadata();
    expect(source).toMatchObject({ format: 'jpeg', width: 2000, height: 1000, orientation: 6 });
    expect(hasGpsIfd(source.exif!)).toBe(true);

    const { key, mediaId, vehicleId } = await createMedia(photo);
    const process = createThumbnailProcessor({ em: t.orm.em, storage });
    const job = jobOf({ mediaId });
    expect(await process(job)).toEqual({ status: 'done', width: 1000, height: 2000, fileSize: photo.length });

    const media = await mediaRow(mediaId);
    const original = await head(key);
    expect(media).toMatchObject({
      width: 1000,
      height: 2000,
      fileSize: original?.ContentLength,
      approvalStatus: 'auto',
      rejectionReason: null,
      thumbnailUrl: `/objects/thumbs/${mediaId}/480.webp`,
    });
    expect(media?.fileSize).toBe(photo.length);

    for (const width of THUMBNAIL_WIDTHS) {
      const renditionKey = thumbnailKey(mediaId, width);
      const stored = await head(renditionKey);
      expect(stored?.ContentType).toBe('image/webp');
      expect(stored?.CacheControl).toBe('public, max-age=31536000, immutable');
      const rendition = await download(renditionKey);
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
    const process = createThumbnailProcessor({ em: t.orm.em, storage });
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

  it('jobs for several images of one vehicle at once leave every thumbnail in the public list', async () => {
    const { vehicleId } = await createMedia(await phoneJpeg());
    const em = t.orm.em.fork();
    const vehicle = await em.findOneOrFail(Vehicle, vehicleId);
    const extra = [];
    for (let i = 0; i < 4; i++) {
      const key = `uploads/${userId}/${randomUUID()}.jpg`;
      await putObject(key, await phoneJpeg(), 'image/jpeg');
      extra.push(em.create(Media, { vehicle, url: objectPathOf(key), priority: i + 1 }));
    }
    await em.flush();
    const ids = (await em.find(Media, { vehicle: vehicleId })).map((media) => media.id);
    const process = createThumbnailProcessor({ em: t.orm.em, storage });
    await Promise.all(ids.map((mediaId) => process(jobOf({ mediaId }))));
    const listed = await publicMedia(vehicleId);
    expect(listed).toHaveLength(5);
    expect(listed!.every((media) => media.thumbnailUrl?.endsWith('/480.webp'))).toBe(true);
  });

  it('refuses an image whose header claims more than 50 megapixels', async () => {
    const bomb = await pixelBombPng();
    expect(bomb.length).toBeLessThan(200);
    const { key, mediaId } = await createMedia(bomb, 'image/png');
    const process = createThumbnailProcessor({ em: t.orm.em, storage });
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
    const process = createThumbnailProcessor({ em: t.orm.em, storage });
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
    const process = createThumbnailProcessor({ em: t.orm.em, storage: racing });
    expect(await process(jobOf({ mediaId }))).toEqual({ status: 'skipped' });
    expect(await storage.list(`thumbs/${mediaId}/`)).toEqual([]);
  });
});

describe('storage.delete', () => {
  it('deletes the listed keys and everything under the prefixes', async () => {
    const id = randomUUID();
    const keys = [`uploads/${userId}/${id}-a.jpg`, `uploads/${userId}/${id}-b.jpg`];
    const under = [1, 2, 3, 4, 5].map((n) => `thumbs/${id}/${n}.webp`);
    const sibling = `thumbs/${id}-other/480.webp`;
    for (const key of [...keys, ...under, sibling]) await putObject(key, Buffer.from(key), 'image/webp');

    const process = createStorageDeleteProcessor({ storage });
    const job = {
      id: randomUUID(),
      name: 'storage.delete',
      data: { keys: [...keys, `uploads/${userId}/${id}-missing.jpg`], prefixes: [`thumbs/${id}/`] },
    } as unknown as Job;
    expect(await process(job)).toEqual({ status: 'deleted', deleted: 8 });

    for (const key of [...keys, ...under]) expect(await head(key)).toBeUndefined();
    expect(await head(sibling)).toBeDefined();
    // Idempotent: running again finds nothing left and succeeds.
    expect(await process(job)).toEqual({ status: 'deleted', deleted: 3 });

    const wide = { ...job, data: { keys: [], prefixes: ['thumbs/'] } } as unknown as Job;
    await expect(process(wide)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await head(sibling)).toBeDefined();
    await storage.deleteMany([sibling]);
  });

  it('follows ListObjectsV2 continuation tokens', async () => {
    // The embedded s3rver cannot page (its tokens use DES, which Node's OpenSSL 3 refuses), so the
    // listing is served here, with the page size passed through.
    const all = Array.from({ length: 5 }, (_, n) => `thumbs/x/${n}.webp`);
    const requests: { token?: string; maxKeys?: number }[] = [];
    const paging = {
      async send(command: { input: { ContinuationToken?: string; MaxKeys?: number } }) {
        const { ContinuationToken: token, MaxKeys: maxKeys = 1000 } = command.input;
        requests.push({ token, maxKeys });
        const start = token ? Number(token) : 0;
        const end = start + maxKeys;
        return {
          Contents: all.slice(start, end).map((Key) => ({ Key })),
          IsTruncated: end < all.length,
          NextContinuationToken: end < all.length ? String(end) : undefined,
        };
      },
    } as unknown as S3Client;
    expect(await createStorage(paging, bucket, { listPageSize: 2 }).list('thumbs/x/')).toEqual(all);
    expect(requests).toEqual([
      { token: undefined, maxKeys: 2 },
      { token: '2', maxKeys: 2 },
      { token: '4', maxKeys: 2 },
    ]);
  });

  it('sends DeleteObjects in batches of at most 1000 keys', async () => {
    const batches: number[] = [];
    const counting = {
      send(command: { constructor: { name: string }; input: { Delete?: { Objects?: unknown[] } } }) {
        if (command.constructor.name === 'DeleteObjectsCommand') {
          batches.push(command.input.Delete?.Objects?.length ?? 0);
        }
        return s3.send(command as never);
      },
    } as unknown as S3Client;
    const keys = Array.from({ length: 2001 }, (_, n) => `thumbs/${randomUUID()}/${n}.webp`);
    await createStorage(counting, bucket).deleteMany(keys);
    expect(batches).toEqual([1000, 1000, 1]);
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
      .toBe(objectPathOf(thumbnailKey(good.mediaId, 480)));
    expect(await head(thumbnailKey(good.mediaId, 1280))).toBeDefined();

    await expect
      .poll(async () => (await t.queues.media.getJob(badRow!.id))?.getState(), { timeout: 15_000 })
      .toBe('completed');
    const badJob = await t.queues.media.getJob(badRow!.id);
    expect(badJob?.returnvalue).toEqual({ status: 'rejected', reason: IMAGE_REJECTION_REASONS.invalid });
    expect(badJob?.failedReason).toBeFalsy();
    expect((await mediaRow(bad.mediaId))?.approvalStatus).toBe('rejected');
  });
});

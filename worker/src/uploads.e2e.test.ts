/**
 * The image path end to end, as a browser drives it: presigned uploads straight to the embedded S3
 * server, attaching through the API, the BullMQ worker (fed by the outbox relay) checking the file
 * and writing WebP renditions, and GET /objects/{key} with its access rules.
 */
import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client, renditionKey, Upload } from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle as createTestVehicle,
  makeRoomForVehicle,
  type TestClient,
  type TestContext,
  type TestResponse,
} from '@schlosstreffen/api/testing';
import { MAX_IMAGE_BYTES, type Role } from '@schlosstreffen/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from './adapters/mailer.js';
import type { RunningWorkers } from './worker.js';
import { createTestMailer, startTestWorkers } from './testing.js';
import { gradientJpeg } from './test-photos.js';

/** How long the worker may take for a thumbnail or a deletion. */
const WORKER_TIMEOUT = { timeout: 15_000, interval: 100 };

const MESSAGES = {
  tooLarge: 'Das Bild darf höchstens 10 MB groß sein.',
  imageOnly: 'Nur Bilddateien sind erlaubt.',
  foreign: 'Dieses Bild gehört nicht zu deinen Uploads.',
  tooManyImages: 'Ein Fahrzeug kann höchstens 10 Bilder haben.',
  invalidImage: 'Die Datei ist kein gültiges Bild.',
  alreadyAttached: 'Dieses Bild ist bereits einem Fahrzeug zugeordnet.',
} as const;

let t: TestContext;
let s3: S3Client;
let bucket: string;
let mailer: Mailer;
let running: RunningWorkers;

interface Account {
  client: TestClient;
  id: string;
}
let owner: Account;
let other: Account;
let admin: Account;
let anon: TestClient;

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  bucket = t.config.s3.bucket;
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  anon = t.client();
  owner = await signedIn('user', 'Olaf');
  other = await signedIn('user', 'Otto');
  admin = await signedIn('admin', 'Anna');
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});
beforeEach(() => t.resetRateLimits());

// ---------------------------------------------------------------------------------------------
// Accounts and vehicles

async function signedIn(role: Role, firstName: string): Promise<Account> {
  return t.signIn(role, { firstName, lastName: 'Test' });
}

/** A draft of the owner (or the client's user); the owner's oldest go, it creates more than an account may hold. */
async function createVehicle(client: TestClient = owner.client): Promise<string> {
  if (client === owner.client) await makeRoomForVehicle(t, owner.id);
  return (await createTestVehicle(client)).id;
}

interface MediaView {
  id: string;
  url: string;
  thumbnailUrl: string | null;
  isHero: boolean;
  width: number | null;
  height: number | null;
  fileSize: number | null;
  cropX: string;
  cropY: string;
  scale: string;
  approvalStatus: string;
  rejectionReason: string | null;
}

async function vehicleOf(id: string, client: TestClient = owner.client) {
  const res = await client.get(`/api/vehicles/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.data as { id: string; status: string; media: MediaView[] };
}

const mediaOf = async (vehicleId: string, mediaId: string) =>
  (await vehicleOf(vehicleId)).media.find((item) => item.id === mediaId);

/** Polls the owner's view of a vehicle until the worker has written the media's thumbnail. */
async function waitForThumbnail(vehicleId: string, mediaId: string): Promise<MediaView> {
  await expect
    .poll(async () => (await mediaOf(vehicleId, mediaId))?.thumbnailUrl ?? null, WORKER_TIMEOUT)
    .not.toBeNull();
  return (await mediaOf(vehicleId, mediaId))!;
}

function attach(vehicleId: string, url: string, client: TestClient = owner.client) {
  return client.post(`/api/vehicles/${vehicleId}/media`, { type: 'image', url });
}

async function attachOk(vehicleId: string, url: string, client: TestClient = owner.client) {
  const res = await attach(vehicleId, url, client);
  expect(res.status, res.text).toBe(201);
  return res.data as MediaView;
}

// ---------------------------------------------------------------------------------------------
// Images

/** A JPEG with a colour gradient and EXIF GPS tags. */
const photoJpeg = (width: number, height: number) => gradientJpeg(width, height, { gps: true });

let tinyJpegCache: Buffer | undefined;
async function tinyJpeg(): Promise<Buffer> {
  tinyJpegCache ??= await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .jpeg()
    .toBuffer();
  return tinyJpegCache;
}

// ---------------------------------------------------------------------------------------------
// Storage

/** A Buffer as a fetch body (typed as a plain ArrayBuffer view). */
const bodyOf = (data: Buffer) => new Uint8Array(data);

function presign(client: TestClient, request: { filename: string; type: string; size: number }) {
  return client.post('/api/objects/upload', request);
}

/** What the browser does: a PUT of the bytes to the presigned URL with the signed headers. */
function putPresigned(url: string, data: Buffer, headers: Record<string, string>) {
  return fetch(url, { method: 'PUT', headers, body: bodyOf(data) });
}

/** Presigns and uploads like the browser; returns the object path to attach. */
async function uploadViaApi(
  client: TestClient,
  data: Buffer,
  type = 'image/jpeg',
  filename = 'auto.jpg',
): Promise<{ objectPath: string; key: string; uploadURL: string }> {
  const signed = await presign(client, { filename, type, size: data.length });
  expect(signed.status, signed.text).toBe(200);
  const put = await putPresigned(signed.data.uploadURL, data, signed.data.headers);
  expect(put.status, await put.clone().text()).toBe(200);
  return signed.data as { objectPath: string; key: string; uploadURL: string };
}

/**
 * Puts an object straight into the bucket under a user's upload prefix and records it as a signed
 * upload (what POST /api/objects/upload does, without its size limit); returns its object path.
 */
async function putDirect(userId: string, data: Buffer, contentType = 'image/jpeg') {
  const key = `uploads/${userId}/${randomUUID()}.jpg`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: contentType }));
  await t.orm.em
    .fork()
    .insert(Upload, { key, user: userId, contentType, size: data.length, createdAt: new Date() });
  return { key, objectPath: `/objects/${key}` };
}

async function exists(key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) {
      return false;
    }
    throw error;
  }
}

const keyOfPath = (objectPath: string) => objectPath.slice('/objects/'.length);
const renditionKeys = (mediaId: string) => [renditionKey(mediaId, 480), renditionKey(mediaId, 1280)];
/** What stays stored of an image once cleaned: the full-size copy and the renditions. */
const cleanKeys = (mediaId: string) => [`media/${mediaId}/full.jpg`, ...renditionKeys(mediaId)];

/** Polls until none of the keys exists any more. */
async function waitUntilGone(keys: string[]) {
  await expect
    .poll(
      async () =>
        (await Promise.all(keys.map(async (key) => ((await exists(key)) ? key : '')))).filter(Boolean),
      WORKER_TIMEOUT,
    )
    .toEqual([]);
}

/** GET /objects/… with the client's cookies (or none), keeping the body as bytes. */
async function getObject(path: string, client?: TestClient, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, t.baseUrl), {
    headers: { ...headers, ...(client ? { cookie: client.cookieHeader } : {}) },
  });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body };
}

const message = (res: TestResponse) => res.data.message as string | undefined;

// ---------------------------------------------------------------------------------------------

describe('a photo uploaded like a browser does', () => {
  it('is stored, thumbnailed by the worker and served by the access rules', async () => {
    const vehicleId = await createVehicle();
    const photo = await photoJpeg(1600, 1200);
    const { objectPath, uploadURL, key } = await uploadViaApi(owner.client, photo);

    // Spec rule: the object path is /objects/ plus the upload URL's path without /{bucket}.
    const segments = new URL(uploadURL).pathname.split('/');
    expect(segments[1]).toBe(bucket);
    expect(objectPath).toBe(`/objects/${segments.slice(2).join('/')}`);
    expect(key).toBe(keyOfPath(objectPath));
    expect(key.startsWith(`uploads/${owner.id}/`)).toBe(true);

    const created = await attachOk(vehicleId, objectPath);
    // The media's url names its clean copy, which the worker writes; no user id in it.
    const fullUrl = `/objects/media/${created.id}/full.jpg`;
    expect(created).toMatchObject({ url: fullUrl, isHero: true, thumbnailUrl: null });

    const media = await waitForThumbnail(vehicleId, created.id);
    const clean = await getObject(fullUrl, owner.client);
    expect(media).toMatchObject({
      thumbnailUrl: `/objects/${renditionKey(created.id, 480)}`,
      width: 1600,
      height: 1200,
      fileSize: clean.body.length,
      isHero: true,
    });
    const thumbUrl = media.thumbnailUrl!;

    // Only clean copies are stored and served: the upload is deleted and never served.
    await waitUntilGone([key]);
    for (const client of [owner.client, admin.client, undefined]) {
      expect((await getObject(objectPath, client)).status).toBe(404);
    }
    expect(clean.status).toBe(200);
    expect(clean.headers.get('content-type')).toBe('image/jpeg');
    expect(clean.headers.get('cache-control')).toMatch(/^private/);
    const cleanMeta = await sharp(clean.body).metadata();
    expect(cleanMeta).toMatchObject({ format: 'jpeg', width: 1600, height: 1200 });
    expect(cleanMeta.exif).toBeUndefined();
    const thumb = await getObject(thumbUrl, owner.client);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const thumbMeta = await sharp(thumb.body).metadata();
    expect(thumbMeta).toMatchObject({ format: 'webp', width: 480, height: 360 });
    expect(thumbMeta.exif).toBeUndefined();

    // While the vehicle is a draft: nobody else but staff.
    for (const path of [fullUrl, thumbUrl]) {
      expect((await getObject(path)).status, `anonymous ${path}`).toBe(404);
      expect((await getObject(path, other.client)).status, `other ${path}`).toBe(404);
      expect((await getObject(path, admin.client)).status, `admin ${path}`).toBe(200);
    }

    const { status } = await vehicleOf(vehicleId);
    const confirmed = await admin.client.patch(`/api/admin/vehicles/${vehicleId}/status`, {
      status: 'confirmed',
      oldStatus: status,
    });
    expect(confirmed.status, confirmed.text).toBe(200);

    // Confirmed: public, cacheable, downloadable, conditional.
    const publicFull = await getObject(fullUrl);
    expect(publicFull.status).toBe(200);
    expect(publicFull.headers.get('cache-control')).toMatch(/^public\b/);
    expect(publicFull.body.equals(clean.body)).toBe(true);
    const publicThumb = await getObject(thumbUrl);
    expect(publicThumb.status).toBe(200);
    expect(publicThumb.headers.get('cache-control')).toMatch(/^public\b/);

    const list = await anon.get('/api/vehicles/public');
    expect(list.status).toBe(200);
    const listed = (list.data as unknown as { id: string; media: MediaView[] }[]).find(
      (vehicle) => vehicle.id === vehicleId,
    );
    expect(listed?.media).toEqual([
      expect.objectContaining({ url: fullUrl, thumbnailUrl: thumbUrl, isHero: true }),
    ]);
    expect(JSON.stringify(list.data)).not.toContain(owner.id);

    // The server names downloads (the media library's rule); the client's proposal is ignored.
    const download = await getObject(`${fullUrl}?download=Mein_Auto.exe`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="BMW_M3_E46_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.jpg"/,
    );

    const etag = publicFull.headers.get('etag');
    expect(etag).toBeTruthy();
    const notModified = await getObject(fullUrl, undefined, { 'if-none-match': etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
  });
});

describe('a file that is no image', () => {
  it('is rejected by the worker with a German reason and its original deleted', async () => {
    const vehicleId = await createVehicle();
    const text = Buffer.from('Das ist kein Bild, sondern nur Text.\n'.repeat(20));
    const { objectPath, key } = await uploadViaApi(owner.client, text, 'image/jpeg', 'falsch.jpg');
    expect(await exists(key)).toBe(true);

    const created = await attachOk(vehicleId, objectPath);
    await expect
      .poll(async () => (await mediaOf(vehicleId, created.id))?.approvalStatus, WORKER_TIMEOUT)
      .toBe('rejected');
    expect(await mediaOf(vehicleId, created.id)).toMatchObject({
      rejectionReason: MESSAGES.invalidImage,
      thumbnailUrl: null,
    });
    await waitUntilGone([key]);
  });
});

describe('upload limits through the API', () => {
  it('refuses to sign an oversized or non-image upload', async () => {
    const big = await presign(owner.client, {
      filename: 'a.jpg',
      type: 'image/jpeg',
      size: MAX_IMAGE_BYTES + 1,
    });
    expect(big.status).toBe(400);
    expect(message(big)).toBe(MESSAGES.tooLarge);

    const text = await presign(owner.client, { filename: 'a.txt', type: 'text/plain', size: 10 });
    expect(text.status).toBe(400);
    expect(message(text)).toBe(MESSAGES.imageOnly);
  });

  it('has the storage refuse more bytes or another type than were signed', async () => {
    const jpeg = await tinyJpeg();
    const signed = await presign(owner.client, { filename: 'a.jpg', type: 'image/jpeg', size: jpeg.length });
    expect(signed.status).toBe(200);
    const { uploadURL, headers, key } = signed.data;
    const refused = [
      await putPresigned(uploadURL, Buffer.concat([jpeg, jpeg]), headers),
      await putPresigned(uploadURL, jpeg, { 'content-type': 'text/html' }),
    ];
    for (const put of refused) {
      expect(put.status).toBeGreaterThanOrEqual(400);
      expect(put.status).toBeLessThan(500);
    }
    expect(await exists(key)).toBe(false);
  });

  it('refuses to attach an object over 10 MB', async () => {
    const vehicleId = await createVehicle();
    const { objectPath } = await putDirect(owner.id, Buffer.alloc(MAX_IMAGE_BYTES + 1, 0xff));
    const res = await attach(vehicleId, objectPath);
    expect(res.status).toBe(400);
    expect(message(res)).toBe(MESSAGES.tooLarge);
  });

  it("refuses another user's upload and an object attached before", async () => {
    const vehicleId = await createVehicle();
    const foreign = await uploadViaApi(other.client, await tinyJpeg());
    const res = await attach(vehicleId, foreign.objectPath);
    expect(res.status).toBe(403);
    expect(message(res)).toBe(MESSAGES.foreign);

    const { objectPath } = await putDirect(owner.id, await tinyJpeg());
    await attachOk(vehicleId, objectPath);
    // Refused while the upload waits to be cleaned (409), and once it is gone (400).
    const again = await attach(vehicleId, objectPath);
    expect([409, 400]).toContain(again.status);
    const elsewhere = await attach(await createVehicle(), objectPath);
    expect([409, 400]).toContain(elsewhere.status);
    expect((await vehicleOf(vehicleId)).media).toHaveLength(1);
  });

  it('refuses an upload in the moment the worker has cleaned it but not yet deleted it', async () => {
    const vehicleId = await createVehicle();
    const { objectPath } = await putDirect(owner.id, await tinyJpeg());
    // The moment is made here, not by the worker, which must not delete the upload first.
    await t.queues.media.pause();
    try {
      await attachOk(vehicleId, objectPath);
      // What the worker records before it deletes the upload: no media row names the key any more.
      await t.orm.em
        .fork()
        .getConnection()
        .execute(`update media set upload_key = null where vehicle_id = ?`, [vehicleId]);
      const elsewhere = await attach(await createVehicle(), objectPath);
      expect(elsewhere.status).toBe(409);
      expect(message(elsewhere)).toBe(MESSAGES.alreadyAttached);
    } finally {
      await t.queues.media.resume();
    }
  });

  it('holds at most ten images per vehicle', async () => {
    const vehicleId = await createVehicle();
    const jpeg = await tinyJpeg();
    for (let i = 0; i < 10; i += 1) {
      await attachOk(vehicleId, (await putDirect(owner.id, jpeg)).objectPath);
    }
    const eleventh = await attach(vehicleId, (await putDirect(owner.id, jpeg)).objectPath);
    expect(eleventh.status).toBe(400);
    expect(message(eleventh)).toBe(MESSAGES.tooManyImages);
    expect((await vehicleOf(vehicleId)).media).toHaveLength(10);
  });
});

describe('hero and crop', () => {
  it('moves the hero and clamps crop values, returned as text', async () => {
    const vehicleId = await createVehicle();
    const jpeg = await tinyJpeg();
    const first = await attachOk(vehicleId, (await putDirect(owner.id, jpeg)).objectPath);
    const second = await attachOk(vehicleId, (await putDirect(owner.id, jpeg)).objectPath);
    expect([first.isHero, second.isHero]).toEqual([true, false]);

    const res = await owner.client.patch(`/api/vehicles/${vehicleId}/media`, {
      updates: [{ id: second.id, isHero: true, cropX: '150', cropY: '-5', scale: '250' }],
    });
    expect(res.status, res.text).toBe(200);
    const items = res.data as unknown as MediaView[];
    expect(items.filter((item) => item.isHero).map((item) => item.id)).toEqual([second.id]);

    const updated = items.find((item) => item.id === second.id)!;
    for (const [field, value] of [
      ['cropX', 100],
      ['cropY', 0],
      ['scale', 200],
    ] as const) {
      expect(typeof updated[field], field).toBe('string');
      expect(Number(updated[field]), field).toBe(value);
    }

    // The same when read again.
    const reread = (await mediaOf(vehicleId, second.id))!;
    expect([reread.isHero, Number(reread.cropX), Number(reread.cropY), Number(reread.scale)]).toEqual([
      true,
      100,
      0,
      200,
    ]);
    expect((await mediaOf(vehicleId, first.id))?.isHero).toBe(false);
  });
});

describe('deleting removes the stored objects', () => {
  it('deletes an image with its renditions; the next image becomes the hero', async () => {
    const vehicleId = await createVehicle();
    const jpeg = await photoJpeg(800, 600);
    const first = await putDirect(owner.id, jpeg);
    const second = await putDirect(owner.id, jpeg);
    const hero = await attachOk(vehicleId, first.objectPath);
    const next = await attachOk(vehicleId, second.objectPath);
    await waitForThumbnail(vehicleId, hero.id);
    await waitForThumbnail(vehicleId, next.id);
    await waitUntilGone([first.key, second.key]);
    const keys = cleanKeys(hero.id);
    for (const key of keys) expect(await exists(key), key).toBe(true);

    const res = await owner.client.delete(`/api/vehicles/${vehicleId}/media/${hero.id}`);
    expect(res.status).toBe(204);
    await waitUntilGone(keys);

    const { media } = await vehicleOf(vehicleId);
    expect(media.map((item) => [item.id, item.isHero])).toEqual([[next.id, true]]);
    for (const key of cleanKeys(next.id)) expect(await exists(key), key).toBe(true);
  });

  it('deletes the objects of all images of a deleted draft', async () => {
    const vehicleId = await createVehicle();
    const jpeg = await photoJpeg(800, 600);
    const keys: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const { objectPath } = await putDirect(owner.id, jpeg);
      const media = await attachOk(vehicleId, objectPath);
      await waitForThumbnail(vehicleId, media.id);
      keys.push(...cleanKeys(media.id));
    }
    for (const key of keys) expect(await exists(key), key).toBe(true);

    const res = await owner.client.delete(`/api/vehicles/${vehicleId}`);
    expect(res.status).toBe(204);
    await waitUntilGone(keys);
    expect((await owner.client.get(`/api/vehicles/${vehicleId}`)).status).toBe(404);
  });
});

describe('uploads that cannot be swapped', () => {
  it('signs for minutes, names the key by the signed type, and a second PUT changes nothing served', async () => {
    const vehicleId = await createVehicle();
    const photo = await photoJpeg(800, 600);
    const signed = await presign(owner.client, {
      filename: 'bild.exe',
      type: 'image/jpeg',
      size: photo.length,
    });
    expect(signed.status).toBe(200);
    const { uploadURL, headers, key, objectPath, expires } = signed.data as {
      uploadURL: string;
      headers: Record<string, string>;
      key: string;
      objectPath: string;
      expires: number;
    };
    // Valid 10 minutes, for one key the server chose, with the extension of the signed type.
    expect(expires).toBeLessThanOrEqual(15 * 60);
    expect(Number(new URL(uploadURL).searchParams.get('X-Amz-Expires'))).toBe(expires);
    expect(key).toMatch(new RegExp(`^uploads/${owner.id}/[0-9a-f-]{36}\\.jpg$`));
    expect((await putPresigned(uploadURL, photo, headers)).status).toBe(200);

    const media = await attachOk(vehicleId, objectPath);
    expect(media.url).toBe(`/objects/media/${media.id}/full.jpg`);
    await waitForThumbnail(vehicleId, media.id);
    await waitUntilGone([key]);
    const before = await getObject(media.url, owner.client);
    expect(before.status).toBe(200);

    // The same URL again, with other bytes of the same length and type: stored, never served.
    const swapped = Buffer.alloc(photo.length, 0x42);
    expect((await putPresigned(uploadURL, swapped, headers)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await getObject(media.url, owner.client);
    expect(after.body.equals(before.body)).toBe(true);
    for (const client of [owner.client, admin.client, undefined]) {
      expect((await getObject(objectPath, client)).status).toBe(404);
    }
    for (const path of [media.url, ...Object.values((await mediaOf(vehicleId, media.id)) ?? {})]) {
      if (typeof path === 'string' && path.startsWith('/objects/')) expect(path).not.toContain('.exe');
    }
  });
});

describe('upload endpoints', () => {
  it('signs single PUTs only: the companion-style multipart, params and STS calls do not exist', async () => {
    // Images are at most 10 MB, far below the uploader's 100 MB multipart threshold.
    for (const [method, path] of [
      ['POST', '/api/uploads/s3/multipart'],
      ['GET', '/api/uploads/s3/multipart/x/1?key=k'],
      ['GET', '/api/uploads/s3/params?filename=a.jpg&type=image/jpeg'],
      ['GET', '/api/uploads/s3/sts'],
    ] as const) {
      const res = await owner.client.request(method, path, method === 'POST' ? { json: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});

/**
 * The quartett print export end to end: an admin starts it through the API, the outbox relay hands
 * the job to the real BullMQ worker, which renders the PDF into the embedded S3 server; the admin
 * downloads it and pdfjs reads it back (pages, text, the size of what is printed).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createS3Client,
  exportKey,
  fullKey,
  Invitation,
  nextStartNumber,
  Media,
  Outbox,
  QuartettCard,
  QuartettSet,
  Upload,
} from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle as createTestVehicle,
  type TestClient,
  type TestContext,
} from '@schlosstreffen/api/testing';
import type { Role } from '@schlosstreffen/shared';
import type { Job } from 'bullmq';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { createStorage } from '../../adapters/storage.js';
import {
  CARD_MM,
  cardBox,
  CARDS_PER_PAGE,
  GUTTER_MM,
  PAGE_MM,
  pageCount,
  PHOTO_FRAME_MM,
  pt,
  TRIM_MM,
} from './pdf/layout.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import { gradientJpeg } from '../../test-photos.js';
import type { RunningWorkers } from '../../worker.js';
import { dispatch } from '../dispatch.js';
import { createExportQuartett } from './export-quartett.js';

const WORKER_TIMEOUT = { timeout: 60_000, interval: 200 };

let t: TestContext;
let s3: S3Client;
let bucket: string;
let mailer: Mailer;
let running: RunningWorkers;
let admin: TestClient;
let owner: { client: TestClient; id: string };
let other: { client: TestClient; id: string };

async function signedIn(role: Role, firstName: string, lastName: string) {
  return t.signIn(role, { firstName, lastName });
}

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  bucket = t.config.s3.bucket;
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  admin = (await signedIn('admin', 'Anna', 'Admin')).client;
  owner = await signedIn('user', 'Jürgen', 'Größmann');
  other = await signedIn('user', 'Lena', 'Weber');
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});
beforeEach(() => t.resetRateLimits());

// ---------------------------------------------------------------------------------------------
// Vehicles and images

async function createVehicle(client: TestClient, fields: Record<string, unknown>): Promise<string> {
  return (await createTestVehicle(client, fields)).id;
}

async function setStatus(id: string, status: string) {
  const current = await admin.get(`/api/vehicles/${id}`);
  const res = await admin.patch(`/api/admin/vehicles/${id}/status`, {
    status,
    oldStatus: current.data.status,
  });
  expect(res.status, res.text).toBe(200);
}

/** A photo-like JPEG: a colour gradient. */
const photoJpeg = (width: number, height: number) => gradientJpeg(width, height, { blue: 90 });

/** Polls until `read` gives a truthy value (expect.poll works only inside a test). */
async function waitFor<T>(read: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting for the worker');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An upload as the browser makes it after POST /api/objects/upload signed it. */
async function putUpload(userId: string, data: Buffer) {
  const key = `uploads/${userId}/${randomUUID()}.jpg`;
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: 'image/jpeg' }));
  await t.orm.em.fork().insert(Upload, {
    key,
    user: userId,
    contentType: 'image/jpeg',
    size: data.length,
    createdAt: new Date(),
  });
  return { key, objectPath: `/objects/${key}` };
}

/** A clean full-size copy without renditions: the card falls back to it. */
async function putCleanCopy(mediaId: string, data: Buffer) {
  const key = fullKey(mediaId, 'jpg');
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ContentType: 'image/jpeg' }));
  return `/objects/${key}`;
}

interface Fleet {
  /** In print order. */
  names: string[];
  owners: string[];
  ids: string[];
  /** Cards with a usable photo, by position. */
  withPhoto: number[];
  pending: string;
}

/**
 * Six confirmed vehicles: one with an invitation (so it prints first), one with an uploaded photo
 * cleaned by the worker and cropped, one whose image has no rendition (the clean full copy is used),
 * one without images, one with a refused image only, one without a name; and a submitted one.
 */
async function createFleet(): Promise<Fleet> {
  const em = t.orm.em.fork();
  const blitz = await createVehicle(owner.client, {
    name: 'Blauer Blitz Größe',
    color: 'Blau',
    torqueNm: 365,
  });
  const { objectPath } = await putUpload(owner.id, await photoJpeg(1600, 1000));
  const attached = await owner.client.post(`/api/vehicles/${blitz}/media`, {
    type: 'image',
    url: objectPath,
  });
  expect(attached.status, attached.text).toBe(201);
  const mediaId = attached.data.id as string;
  await waitFor(async () => (await owner.client.get(`/api/vehicles/${blitz}`)).data.media[0]?.thumbnailUrl);
  const cropped = await owner.client.patch(`/api/vehicles/${blitz}/media`, {
    updates: [{ id: mediaId, cropX: 20, cropY: 60, scale: 150 }],
  });
  expect(cropped.status, cropped.text).toBe(200);

  const panther = await createVehicle(other.client, { name: 'Schwarzer Panther', cylinders: 8 });
  const audi = await createVehicle(other.client, {
    name: null,
    brand: 'Audi',
    model: 'RS2 Avant',
    year: 1994,
  });
  const audiImage = randomUUID();
  const audiUrl = await putCleanCopy(audiImage, await photoJpeg(900, 1200));
  em.create(Media, { id: audiImage, vehicle: audi, url: audiUrl, isHero: true, cropY: '30.00' });
  const hoelle = await createVehicle(owner.client, { name: 'Grüne Hölle' });
  em.create(Media, {
    vehicle: hoelle,
    url: `/objects/media/${randomUUID()}/full.jpg`,
    isHero: true,
    approvalStatus: 'rejected',
    rejectionReason: 'Die Datei ist kein gültiges Bild.',
  });
  const wal = await createVehicle(other.client, { name: 'Weißer Wal' });
  const renner = await createVehicle(owner.client, { name: 'Roter Renner', color: 'Rot' });
  const pending = await createVehicle(other.client, { name: 'Nicht bestätigt', status: 'submitted' });
  await em.flush();

  const ids = [blitz, panther, audi, hoelle, wal, renner];
  for (const id of ids) await setStatus(id, 'confirmed');
  // A start number puts the Roter Renner first; the others follow in registration order.
  em.create(Invitation, {
    vehicle: renner,
    edition: t.event.edition.id,
    startNumber: await nextStartNumber(em, t.event.edition.id),
    qrCode: randomBytes(24).toString('base64url'),
    parkingZone: 'A',
  });
  await em.flush();

  const ownerName = 'Jürgen Größmann';
  const otherName = 'Lena Weber';
  return {
    ids: [renner, blitz, panther, audi, hoelle, wal],
    names: [
      'Roter Renner',
      'Blauer Blitz Größe',
      'Schwarzer Panther',
      'Audi RS2 Avant',
      'Grüne Hölle',
      'Weißer Wal',
    ],
    owners: [ownerName, ownerName, otherName, otherName, ownerName, otherName],
    withPhoto: [1, 3],
    pending,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the PDF

interface ImagePlacement {
  x: number;
  y: number;
  width: number;
  height: number;
}

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

async function readPdf(data: Buffer) {
  const pdf = await getDocument({
    data: new Uint8Array(data),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
    // Every image's placement from the operator list: the current transformation at each paint,
    // in PDF user space (origin bottom left, points).
    const operators = await page.getOperatorList();
    const images: ImagePlacement[] = [];
    let ctm: Matrix = [1, 0, 0, 1, 0, 0];
    const stack: Matrix[] = [];
    operators.fnArray.forEach((fn, index) => {
      const args = operators.argsArray[index] as unknown[];
      if (fn === OPS.save) stack.push(ctm);
      else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
      else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
      else if (fn === OPS.paintImageXObject) {
        images.push({
          width: Math.hypot(ctm[0], ctm[1]),
          height: Math.hypot(ctm[2], ctm[3]),
          x: Math.min(ctm[4], ctm[4] + ctm[0]),
          y: Math.min(ctm[5], ctm[5] + ctm[3]),
        });
      }
    });
    const [, , width, height] = page.view as [number, number, number, number];
    pages.push({ width, height, text, images });
  }
  await pdf.destroy();
  return { numPages: pdf.numPages, pages };
}

async function download(path: string, client?: TestClient) {
  const response = await fetch(new URL(path, t.baseUrl), {
    headers: client ? { cookie: client.cookieHeader } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

async function exportKeys(setId: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'exports/quartett/' }));
  return (listed.Contents ?? []).map((item) => item.Key ?? '').filter((key) => key.includes(setId));
}

// ---------------------------------------------------------------------------------------------

describe('the quartett print export', () => {
  let fleet: Fleet;
  let setId: string;
  let version: number;

  beforeAll(async () => {
    fleet = await createFleet();
  }, 60_000);

  it('renders every confirmed vehicle into a PDF the admin downloads', { timeout: 120_000 }, async () => {
    const started = await admin.post('/api/admin/quartett-sets', { title: 'Sommer 2026' });
    expect(started.status, started.text).toBe(201);
    setId = started.data.id;
    version = started.data.version;
    expect(started.data.status).toBe('queued');

    await expect
      .poll(async () => (await admin.get(`/api/admin/quartett-sets/${setId}`)).data.status, WORKER_TIMEOUT)
      .toBe('ready');
    const set = (await admin.get(`/api/admin/quartett-sets/${setId}`)).data;
    const fileUrl = `/objects/${exportKey(version, setId)}`;
    expect(set).toMatchObject({
      status: 'ready',
      statusLabel: 'Fertig',
      progress: 100,
      cardCount: 6,
      error: null,
      exportFileUrl: fileUrl,
      downloadName: `Schlosstreffen-Quartett-v${version}.pdf`,
      finishedAt: expect.any(String),
    });
    const list = await admin.get('/api/admin/quartett-sets');
    expect((list.data as unknown as { id: string }[])[0]?.id).toBe(setId);

    // The job reported its progress to BullMQ too.
    const outbox = (await t.orm.em.fork().find(Outbox, { job: 'quartett.export' })).find(
      (row) => (row.payload as { setId?: string }).setId === setId,
    );
    const job = await t.queues.export.getJob(outbox!.id);
    expect(job?.progress).toBe(100);

    // The cards: the invited vehicle first, codes in groups of four, the submitted vehicle left out.
    const cards = await t.orm.em.fork().find(QuartettCard, { set: setId }, { orderBy: { position: 'asc' } });
    expect(cards.map((card) => [card.vehicle.id, card.code])).toEqual(
      fleet.ids.map((id, position) => [id, ['A1', 'A2', 'A3', 'A4', 'B1', 'B2'][position]]),
    );
    expect(cards.some((card) => card.vehicle.id === fleet.pending)).toBe(false);

    // Only admins get the file.
    expect((await download(fileUrl)).status).toBe(404);
    expect((await download(fileUrl, owner.client)).status).toBe(404);
    const file = await download(`${fileUrl}?download=${set.downloadName}`, admin);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Schlosstreffen-Quartett-v${version}.pdf"`,
    );
    expect(file.body.subarray(0, 5).toString()).toBe('%PDF-');

    const pdf = await readPdf(file.body);
    expect(pdf.numPages).toBe(2 * Math.ceil(6 / CARDS_PER_PAGE));
    expect(pdf.numPages).toBe(pageCount(6));
    for (const page of pdf.pages) {
      // A4 landscape.
      expect(page.width).toBeCloseTo(pt(PAGE_MM.width), 0);
      expect(page.height).toBeCloseTo(pt(PAGE_MM.height), 0);
      expect(page.width).toBeCloseTo(841.89, 1);
    }
    const [front, back] = pdf.pages;
    for (const [index, name] of fleet.names.entries()) {
      expect(front!.text, name).toContain(name);
      expect(front!.text, fleet.owners[index]).toContain(fleet.owners[index]);
    }
    for (const code of ['A1', 'A2', 'A3', 'A4', 'B1', 'B2']) expect(front!.text).toContain(code);
    expect(front!.text).not.toContain('Nicht bestätigt');
    expect(front!.text).toContain('Kein Foto');
    expect(front!.text).toContain('5,2 s');
    expect(front!.text).toContain('1.570 kg');
    expect(front!.text).toContain('N/A');
    expect(front!.text).toContain(`Version ${version}`);
    expect(back!.text).toContain('Auto-Quartett');
    expect(back!.text).toContain('Sommer 2026');
    expect(back!.images).toEqual([]);

    // The card size as printed: each photo spans the card's full width with bleed (59 + 2 × 3 mm)
    // and the photo frame's height; neighbouring cards lie one card plus gutter apart.
    expect(CARD_MM).toEqual({ width: TRIM_MM.width + 6, height: TRIM_MM.height + 6 });
    expect(TRIM_MM).toEqual({ width: 59, height: 91 });
    expect(front!.images).toHaveLength(fleet.withPhoto.length);
    for (const [index, image] of front!.images.entries()) {
      const slot = fleet.withPhoto[index]!;
      const box = cardBox(slot, 'front');
      expect(image.width).toBeCloseTo(pt(65), 2);
      expect(image.width).toBeCloseTo(pt(CARD_MM.width), 2);
      expect(image.height).toBeCloseTo(pt(PHOTO_FRAME_MM.height), 2);
      expect(image.x).toBeCloseTo(pt(box.x), 2);
      // PDF space counts from the bottom: the frame's top is the bleed box's top.
      expect(pt(PAGE_MM.height) - (image.y + image.height)).toBeCloseTo(pt(box.y), 2);
    }
    const [first, second] = front!.images;
    expect(second!.x - first!.x).toBeCloseTo(pt(2 * (CARD_MM.width + GUTTER_MM)), 2);

    expect(await exportKeys(setId)).toEqual([exportKey(version, setId)]);
  });

  it('skips a redelivered job of a ready set and starts over after a broken attempt', async () => {
    const processor = dispatch({
      'quartett.export': createExportQuartett({
        em: t.orm.em,
        storage: createStorage(s3, bucket),
        eventName: 'Schlosstreffen',
      }),
    });
    const progress: number[] = [];
    const job = {
      id: randomUUID(),
      name: 'quartett.export',
      data: { setId },
      updateProgress: async (value: number) => void progress.push(value),
    } as unknown as Job;

    expect(await processor(job)).toEqual({ status: 'skipped' });

    // An attempt that died half way: the next one renders the whole set again.
    await t.orm.em.fork().nativeUpdate(QuartettSet, { id: setId }, { status: 'rendering', progress: 40 });
    const result = await processor(job);
    expect(result).toMatchObject({
      status: 'done',
      cardCount: 6,
      pages: 2,
      key: exportKey(version, setId),
    });
    expect(progress.at(0)).toBe(0);
    expect(progress.at(-1)).toBe(100);

    const cards = await t.orm.em.fork().find(QuartettCard, { set: setId }, { orderBy: { position: 'asc' } });
    expect(cards.map((card) => card.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(cards.map((card) => card.vehicle.id)).toEqual(fleet.ids);
    expect(await exportKeys(setId)).toEqual([exportKey(version, setId)]);
    const set = await t.orm.em.fork().findOneOrFail(QuartettSet, setId);
    expect(set).toMatchObject({ status: 'ready', progress: 100, cardCount: 6, error: null });
  });

  it('keeps the data of a released set locked', async () => {
    const released = await admin.post(`/api/admin/quartett-sets/${setId}/release`);
    expect(released.status, released.text).toBe(200);
    const locked = await owner.client.patch(`/api/vehicles/${fleet.ids[1]}`, { color: 'Grün' });
    expect(locked.status).toBe(409);
    const free = await other.client.patch(`/api/vehicles/${fleet.pending}`, { color: 'Grün' });
    expect(free.status, free.text).toBe(200);
  });
});

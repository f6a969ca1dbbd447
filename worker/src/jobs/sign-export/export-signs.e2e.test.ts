/**
 * The windshield signs end to end: an admin (or a car's owner) starts a sign PDF through the API,
 * the outbox relay hands the job to the real BullMQ worker, which renders it into the embedded S3
 * server; the PDF is downloaded and pdfjs reads it back: pages and their size, the text, and each
 * page rendered to pixels, whose QR codes jsQR decodes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, Invitation, nextStartNumber } from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle as createTestVehicle,
  type TestClient,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { carPagePath, type SignFormat } from '@schlosstreffen/shared';
import type { Job } from 'bullmq';
import jsqrModule from 'jsqr';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import { createStorage } from '../../adapters/storage.js';
import { pt } from '../../pdf/print-marks.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import type { RunningWorkers } from '../../worker.js';
import { dispatch } from '../dispatch.js';
import { createExportSigns } from './export-signs.js';
import { PAGE_MM, qrBox, signTrimBox } from './layout.js';

// jsqr is CommonJS: its function is the default export, or the module itself.
const jsQR = ((jsqrModule as { default?: unknown }).default ?? jsqrModule) as typeof jsqrModule.default;

const WORKER_TIMEOUT = { timeout: 60_000, interval: 200 };
/** Pixels per point the pages are rendered at to read their QR codes. */
const SCALE = 3;

let t: TestContext;
let s3: S3Client;
let mailer: Mailer;
let running: RunningWorkers;
let admin: TestClient;
let reviewer: TestClient;
let owner: { client: TestClient; id: string };
let other: { client: TestClient; id: string };

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  admin = (await t.signIn('admin', { firstName: 'Anna', lastName: 'Admin' })).client;
  reviewer = (await t.signIn('reviewer', { firstName: 'Rita', lastName: 'Prüfer' })).client;
  owner = await t.signIn('user', { firstName: 'Jürgen', lastName: 'Größmann' });
  other = await t.signIn('user', { firstName: 'Lena', lastName: 'Weber' });
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});
beforeEach(() => t.resetRateLimits());

async function setStatus(id: string, status: string) {
  const current = await admin.get(`/api/vehicles/${id}`);
  const res = await admin.patch(`/api/admin/vehicles/${id}/status`, {
    status,
    oldStatus: current.data.status,
  });
  expect(res.status, res.text).toBe(200);
}

/** A place as the invitation job gives it: the next start number of the edition. */
async function invite(vehicleId: string, parkingZone: string, released = false): Promise<number> {
  const em = t.orm.em.fork();
  const startNumber = await nextStartNumber(em, t.event.edition.id);
  em.create(Invitation, {
    vehicle: vehicleId,
    edition: t.event.edition.id,
    startNumber,
    qrCode: randomBytes(24).toString('base64url'),
    parkingZone,
    ...(released ? { releasedAt: new Date(), releaseReason: 'declined' as const } : {}),
  });
  await em.flush();
  return startNumber;
}

interface Fleet {
  /** The signs in print order (by start number). */
  signs: { id: string; name: string; zone: string; startNumber: number }[];
  withoutNumber: string;
  released: string;
}

/**
 * Three confirmed cars with a place (one named by brand and model), one confirmed car without an
 * invitation, one whose place was given up, and a submitted one.
 */
async function createFleet(): Promise<Fleet> {
  const blitz = (await createTestVehicle(owner.client, { name: 'Blauer Blitz Größe' })).id;
  const audi = (await createTestVehicle(other.client, { name: null, brand: 'Audi', model: 'RS2 Avant' })).id;
  const wal = (await createTestVehicle(other.client, { name: 'Weißer Wal' })).id;
  const withoutNumber = (await createTestVehicle(owner.client, { name: 'Ohne Nummer' })).id;
  const released = (await createTestVehicle(other.client, { name: 'Abgesagt' })).id;
  await createTestVehicle(owner.client, { name: 'Nicht bestätigt', status: 'submitted' });
  for (const id of [blitz, audi, wal, withoutNumber, released]) await setStatus(id, 'confirmed');
  const signs = [
    { id: blitz, name: 'Blauer Blitz Größe', zone: 'Nord' },
    { id: released, name: 'Abgesagt', zone: 'Nord', released: true },
    { id: audi, name: 'Audi RS2 Avant', zone: 'Süd' },
    { id: wal, name: 'Weißer Wal', zone: 'Wird am Einlass zugewiesen' },
  ];
  const numbered = [];
  for (const sign of signs) {
    const startNumber = await invite(sign.id, sign.zone, sign.released);
    if (!sign.released) numbered.push({ id: sign.id, name: sign.name, zone: sign.zone, startNumber });
  }
  return { signs: numbered, withoutNumber, released };
}

const carUrl = (startNumber: number) =>
  `${t.config.publicUrl}${carPagePath(t.event.edition.year, startNumber)}`;

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

interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    canvas: { toBuffer(type: 'image/png'): Buffer };
    context: {
      getImageData(
        x: number,
        y: number,
        width: number,
        height: number,
      ): {
        data: Uint8ClampedArray;
        width: number;
        height: number;
      };
    };
  };
}

interface ReadPage {
  width: number;
  height: number;
  text: string;
  /** The QR codes found in the given boxes (mm), decoded. */
  codes: (string | null)[];
}

/** Reads each page's size and text, renders it and decodes a QR code in each box. */
async function readPdf(
  data: Buffer,
  boxesOf: (page: number) => { x: number; y: number; width: number }[],
  shot?: string,
) {
  const pdf = await getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    standardFontDataUrl: undefined,
  }).promise;
  const pages: ReadPage[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    const viewport = page.getViewport({ scale: SCALE });
    // pdfjs draws on @napi-rs/canvas in Node (its own canvas factory).
    const { canvas, context } = (pdf as unknown as { canvasFactory: CanvasFactory }).canvasFactory.create(
      viewport.width,
      viewport.height,
    );
    await page.render({ canvas, canvasContext: context, viewport } as never).promise;
    // SIGN_SHOTS=<dir> keeps the rendered pages and the PDF to look at.
    const shots = process.env.SIGN_SHOTS;
    if (shot && shots) {
      await mkdir(shots, { recursive: true });
      await writeFile(`${shots}/${shot}-${number}.png`, canvas.toBuffer('image/png'));
      if (number === 1) await writeFile(`${shots}/${shot}.pdf`, data);
    }
    const codes = boxesOf(number).map((box) => {
      const [x, y, size] = [box.x, box.y, box.width].map((mm) => Math.round(pt(mm) * SCALE));
      const image = context.getImageData(x!, y!, size!, size!);
      return jsQR(image.data, image.width, image.height)?.data ?? null;
    });
    const [, , width, height] = page.view as [number, number, number, number];
    pages.push({ width, height, text, codes });
  }
  await pdf.destroy();
  return pages;
}

/** Starts an edition's set and waits until it is ready. */
async function renderSet(format: SignFormat) {
  const started = await admin.post('/api/admin/signs', { format });
  expect(started.status, started.text).toBe(201);
  expect(started.data).toMatchObject({ format, status: 'queued', vehicleId: null });
  await expect
    .poll(async () => (await admin.get(`/api/admin/signs/${started.data.id}`)).data.status, WORKER_TIMEOUT)
    .toBe('ready');
  return (await admin.get(`/api/admin/signs/${started.data.id}`)).data;
}

describe('windshield signs', () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await createFleet();
  }, 60_000);

  it(
    'renders an A4 sign per page for every confirmed car holding a start number',
    { timeout: 120_000 },
    async () => {
      const set = await renderSet('a4');
      expect(set).toMatchObject({
        formatLabel: 'A4 quer, ein Schild je Seite',
        statusLabel: 'Fertig',
        progress: 100,
        signCount: 3,
        error: null,
        downloadName: `Windschilder-${t.event.edition.year}-A4.pdf`,
      });
      expect(set.downloadUrl).toMatch(/^\/objects\/exports\/signs\/[0-9a-f-]{36}\.pdf\?download=/);

      // Only admins get an edition's set.
      expect((await download(set.downloadUrl)).status).toBe(404);
      expect((await download(set.downloadUrl, owner.client)).status).toBe(404);
      expect((await download(set.downloadUrl, reviewer)).status).toBe(404);
      const file = await download(set.downloadUrl, admin);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${set.downloadName}"`);

      const pages = await readPdf(file.body, () => [qrBox(signTrimBox('a4', 0))], 'sign-a4');
      expect(pages).toHaveLength(3);
      for (const [index, page] of pages.entries()) {
        const sign = fleet.signs[index]!;
        // A4 landscape.
        expect(page.width).toBeCloseTo(841.89, 1);
        expect(page.height).toBeCloseTo(595.28, 1);
        expect(page.width).toBeCloseTo(pt(PAGE_MM.width), 1);
        expect(page.text).toContain(String(sign.startNumber));
        expect(page.text).toContain(sign.name);
        expect(page.text).toContain(
          sign.zone === 'Wird am Einlass zugewiesen'
            ? 'Parkzone: wird am Einlass zugewiesen'
            : `Parkzone ${sign.zone}`,
        );
        expect(page.text).toContain(carUrl(sign.startNumber).replace(/^https?:\/\//, ''));
        expect(page.text).toContain('Scannen für Fahrzeugdaten und Abstimmung');
        expect(page.text).toContain(String(t.event.edition.year));
        expect(page.codes).toEqual([carUrl(sign.startNumber)]);
      }
      const all = pages.map((page) => page.text).join('\n');
      expect(all).not.toContain('Ohne Nummer');
      expect(all).not.toContain('Abgesagt');
      expect(all).not.toContain('Nicht bestätigt');
    },
  );

  it('puts two A5 signs on each A4 landscape sheet', { timeout: 120_000 }, async () => {
    const set = await renderSet('a5');
    expect(set).toMatchObject({ formatLabel: 'A5, zwei je A4', signCount: 3 });
    const file = await download(set.downloadUrl, admin);
    const pages = await readPdf(
      file.body,
      (page) => (page === 1 ? [0, 1] : [0]).map((slot) => qrBox(signTrimBox('a5', slot))),
      'sign-a5',
    );
    expect(pages).toHaveLength(2);
    for (const page of pages) {
      expect(page.width).toBeCloseTo(841.89, 1);
      expect(page.height).toBeCloseTo(595.28, 1);
    }
    const [first, second] = fleet.signs.map((sign) => carUrl(sign.startNumber));
    expect(pages[0]!.codes).toEqual([first, second]);
    expect(pages[1]!.codes).toEqual([carUrl(fleet.signs[2]!.startNumber)]);
    expect(pages[0]!.text).toContain(fleet.signs[0]!.name);
    expect(pages[0]!.text).toContain(fleet.signs[1]!.name);

    // Both formats are the edition's sets, one each.
    const list = await admin.get('/api/admin/signs');
    expect((list.data as unknown as { format: string }[]).map((row) => row.format)).toEqual(['a4', 'a5']);
  });

  it("gives a car's owner and staff that car's sign, and nobody else", { timeout: 120_000 }, async () => {
    const sign = fleet.signs[0]!;
    expect((await owner.client.get(`/api/vehicles/${sign.id}/sign`)).status).toBe(404);
    expect((await other.client.post(`/api/vehicles/${sign.id}/sign`, {})).status).toBe(404);
    const started = await owner.client.post(`/api/vehicles/${sign.id}/sign`, {});
    expect(started.status, started.text).toBe(202);
    expect(started.data).toMatchObject({ vehicleId: sign.id, format: 'a4' });
    await expect
      .poll(async () => (await owner.client.get(`/api/vehicles/${sign.id}/sign`)).data.status, WORKER_TIMEOUT)
      .toBe('ready');
    const ready = (await owner.client.get(`/api/vehicles/${sign.id}/sign`)).data;
    expect(ready).toMatchObject({
      signCount: 1,
      downloadName: `Windschild-${t.event.edition.year}-Nr-${sign.startNumber}.pdf`,
    });

    expect((await download(ready.downloadUrl)).status).toBe(404);
    expect((await download(ready.downloadUrl, other.client)).status).toBe(404);
    expect((await download(ready.downloadUrl, reviewer)).status).toBe(200);
    expect((await download(ready.downloadUrl, admin)).status).toBe(200);
    const file = await download(ready.downloadUrl, owner.client);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${ready.downloadName}"`);
    const pages = await readPdf(file.body, () => [qrBox(signTrimBox('a4', 0))]);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text).toContain(sign.name);
    expect(pages[0]!.codes).toEqual([carUrl(sign.startNumber)]);

    // No sign without a start number, nor for a place given up.
    expect((await owner.client.post(`/api/vehicles/${fleet.withoutNumber}/sign`, {})).status).toBe(409);
    expect((await admin.post(`/api/vehicles/${fleet.released}/sign`, {})).status).toBe(409);
  });

  it('skips a redelivered job of a ready export', async () => {
    const set = (await admin.get('/api/admin/signs')).data as unknown as { id: string }[];
    const processor = dispatch({
      'sign.export': createExportSigns({
        em: t.orm.em,
        storage: createStorage(s3, t.config.s3.bucket),
        publicUrl: t.config.publicUrl,
      }),
    });
    const job = {
      id: randomUUID(),
      name: 'sign.export',
      data: { exportId: set[0]!.id },
      updateProgress: async () => undefined,
    } as unknown as Job;
    expect(await processor(job)).toEqual({ status: 'skipped' });
  });
});

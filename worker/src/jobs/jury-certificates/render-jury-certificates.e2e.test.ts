/**
 * The jury's certificates end to end: two classes judged, closed and published through the core,
 * the outbox relay hands the job to the real worker, which renders one print file with a page per
 * awarded place into the embedded S3 server; pdfjs reads it back page by page (text, photos) and
 * renders the first page to pixels. A correction raises the version: its file takes the place of
 * the first, and a job of the old version never takes it back.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  Consent,
  createS3Client,
  fullKey,
  Invitation,
  Jury,
  juryCertificatesKey,
  Media,
  objectPathOf,
  recordJuryCertificates,
  User,
} from '@schlosstreffen/api/core';
import { CONSENTS } from '@schlosstreffen/shared';
import {
  correctTestJury,
  createTestContext,
  insertVotableCar,
  judgeTestEdition,
  type SignedIn,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import sharp from '../../adapters/sharp.js';
import { createStorage } from '../../adapters/storage.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import type { RunningWorkers } from '../../worker.js';
import { createRenderJuryCertificates } from './render-jury-certificates.js';

const WORKER_TIMEOUT = { timeout: 60_000, interval: 200 };
const MAX_PDF = 20 * 1024 * 1024;

let t: TestContext;
let s3: S3Client;
let mailer: Mailer;
let running: RunningWorkers;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  admin = await t.signIn('admin');
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});

/** A clean full-size photo of the car (a gradient JPEG), as the thumbnail job leaves it. */
async function insertPhoto(startNumber: number): Promise<void> {
  const em = t.orm.em.fork();
  const invitation = await em.findOneOrFail(Invitation, { edition: t.event.edition.id, startNumber });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#1a3a8b"/><stop offset="1" stop-color="#d4a848"/></linearGradient></defs>
    <rect width="1600" height="1000" fill="url(#g)"/><circle cx="800" cy="500" r="260" fill="#0b0a08"/></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg().toBuffer();
  const id = randomUUID();
  const key = fullKey(id, 'jpg');
  await s3.send(
    new PutObjectCommand({ Bucket: t.config.s3.bucket, Key: key, Body: jpeg, ContentType: 'image/jpeg' }),
  );
  em.create(Media, {
    id,
    vehicle: invitation.vehicle,
    url: objectPathOf(key),
    isHero: true,
    width: 1600,
    height: 1000,
  });
  await em.flush();
}

/** The owner gave the media consent with the application and withdrew it since. */
async function withdrawMediaConsent(ownerId: string, startNumber: number): Promise<void> {
  const em = t.orm.em.fork();
  const invitation = await em.findOneOrFail(Invitation, { edition: t.event.edition.id, startNumber });
  em.create(Consent, {
    user: em.getReference(User, ownerId),
    vehicle: invitation.vehicle,
    kind: 'media',
    version: CONSENTS.media.version,
    wording: CONSENTS.media.text,
    source: 'application',
    grantedAt: new Date(Date.now() - 3600_000),
    withdrawnAt: new Date(),
  });
  await em.flush();
}

/** Every page's text and number of placed images; the first page drawn to /tmp/shots. */
async function readPdf(data: Buffer, shot: string) {
  const pdf = await getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  const pages: { text: string; images: number; width: number; height: number }[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    const operators = await page.getOperatorList();
    const [, , width, height] = page.view as [number, number, number, number];
    pages.push({
      text: content.items.map((item) => ('str' in item ? item.str : '')).join(' '),
      images: operators.fnArray.filter(
        (op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject,
      ).length,
      width: Math.round(width),
      height: Math.round(height),
    });
    if (number === 1) {
      const viewport = page.getViewport({ scale: 1.5 });
      const factory = (
        pdf as unknown as {
          canvasFactory: {
            create(w: number, h: number): { canvas: { toBuffer(type: string): Buffer }; context: unknown };
          };
        }
      ).canvasFactory;
      const { canvas, context } = factory.create(viewport.width, viewport.height);
      await page.render({ canvas, canvasContext: context, viewport } as never).promise;
      await mkdir('/tmp/shots', { recursive: true });
      await writeFile(`/tmp/shots/${shot}.png`, canvas.toBuffer('image/png'));
    }
  }
  await pdf.destroy();
  return pages;
}

const juryRow = () => t.orm.em.fork().findOneOrFail(Jury, { edition: t.event.edition.id });

describe('the jury certificates', () => {
  it('renders one print file with a page per place; no photo without the media consent; an outdated version never takes the key', async () => {
    const owner = await t.signIn('user');
    const names = ['Blaue Stunde', 'Stilles Wasser', 'Dritter Mann', 'Letzte Reihe'];
    const cars: number[] = [];
    for (const name of names) cars.push(await insertVotableCar(t, owner.id, name));
    await insertPhoto(cars[0]!);
    await insertPhoto(cars[1]!);
    await withdrawMediaConsent(owner.id, cars[1]!);
    const judges = [(await t.signIn('user')).id, (await t.signIn('user')).id];
    // 'Best of Show' in start-number order, 'Bester Umbau' with the first two swapped.
    const order = [cars, [cars[1]!, cars[0]!, cars[3]!, cars[2]!]];
    const classIds = await judgeTestEdition(t, {
      judgeIds: judges,
      adminId: admin.id,
      classes: [
        { name: 'Best of Show', places: 3 },
        { name: 'Bester Umbau', places: 2 },
      ],
      value: ({ classIndex, startNumber }) => 9 - 2 * order[classIndex]!.indexOf(startNumber),
    });
    const editionId = t.event.edition.id;
    const year = t.event.edition.year;
    const first = juryCertificatesKey(editionId, 1);
    await expect.poll(async () => (await juryRow()).certificatesKey, WORKER_TIMEOUT).toBe(first);

    // Only admins read the print file.
    expect((await admin.client.get(objectPathOf(first))).status).toBe(200);
    expect((await owner.client.get(objectPathOf(first))).status).toBe(404);
    expect((await t.client().get(objectPathOf(first))).status).toBe(404);
    // The admin's screen offers it as a download under the edition's name.
    const { certificatesUrl } = (await admin.client.get(`/api/admin/jury/${year}`)).data as {
      certificatesUrl: string;
    };
    const download = await admin.client.get(certificatesUrl);
    expect(download.headers.get('content-disposition')).toContain(`Urkunden-Jury-${year}.pdf`);

    const storage = createStorage(s3, t.config.s3.bucket);
    const pages = await readPdf((await storage.get(first, MAX_PDF))!, 'jury-certificates');
    expect(pages).toHaveLength(5);
    for (const page of pages) {
      expect([page.width, page.height]).toEqual([595, 842]);
      expect(page.text).toContain('Urkunde');
      expect(page.text).toContain(t.event.name);
    }
    const expected = [
      ['1. Platz', `Best of Show ${year}`, names[0], cars[0], 1],
      ['2. Platz', `Best of Show ${year}`, names[1], cars[1], 0],
      ['3. Platz', `Best of Show ${year}`, names[2], cars[2], 0],
      ['1. Platz', `Bester Umbau ${year}`, names[1], cars[1], 0],
      ['2. Platz', `Bester Umbau ${year}`, names[0], cars[0], 1],
    ] as const;
    for (const [index, [place, className, name, startNumber, images]] of expected.entries()) {
      expect(pages[index]!.text).toContain(place);
      expect(pages[index]!.text).toContain(className);
      expect(pages[index]!.text).toContain(name);
      expect(pages[index]!.text).toContain(`Startnummer ${startNumber}`);
      // 'Stilles Wasser' has a photo, but its owner withdrew the consent to show it.
      expect(pages[index]!.images, `page ${index + 1}`).toBe(images);
    }
    expect(pages.some((page) => page.text.includes(names[3]!))).toBe(false);

    // A correction after the meeting raises the version: its file replaces the first, which goes.
    await correctTestJury(t, {
      classId: classIds[1]!,
      places: [cars[0]!, cars[1]!],
      reason: 'Zwei Bewertungsbögen waren vertauscht.',
    });
    const second = juryCertificatesKey(editionId, 2);
    await expect.poll(async () => (await juryRow()).certificatesKey, WORKER_TIMEOUT).toBe(second);
    await expect.poll(async () => storage.get(first, MAX_PDF), WORKER_TIMEOUT).toBeUndefined();
    const corrected = await readPdf((await storage.get(second, MAX_PDF))!, 'jury-certificates-corrected');
    expect(corrected[3]!.text).toContain(names[0]);
    expect(corrected[3]!.text).toContain('1. Platz');
    expect(corrected[4]!.text).toContain(names[1]);

    // The old version's job, run again late, renders nothing and records nothing; its recording
    // (had it rendered before the correction) is refused.
    const render = createRenderJuryCertificates({ em: t.orm.em, storage });
    const job = { id: randomUUID(), updateProgress: async () => {} };
    expect(await render({ editionId, version: 1 }, job)).toEqual({ outdated: true });
    expect(await recordJuryCertificates(t.orm.em, editionId, 1, first)).toBe(false);
    expect((await juryRow()).certificatesKey).toBe(second);
    expect(await storage.get(first, MAX_PDF)).toBeUndefined();
    // The current version's job runs twice: the same file under the same key.
    expect(await render({ editionId, version: 2 }, job)).toEqual({ pages: 5 });
    expect((await juryRow()).certificatesKey).toBe(second);
  });
});

/**
 * The visitors' award certificates end to end: votes through the API, an admin closes the voting,
 * the outbox relay hands the job to the real worker, which renders each 'Urkunde' of the first three
 * into the embedded S3 server with the car's clean photo; pdfjs reads the PDF back (size, text) and
 * renders the winner's page to pixels.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  awardCertificateTasks,
  Consent,
  createS3Client,
  fullKey,
  Invitation,
  Media,
  objectPathOf,
  User,
} from '@schlosstreffen/api/core';
import { CONSENTS } from '@schlosstreffen/shared';
import {
  createTestContext,
  insertVotableCar,
  openVotingForTest,
  type SignedIn,
  type TestClient,
  type TestContext,
} from '@schlosstreffen/api/testing';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../adapters/mailer.js';
import sharp from '../../adapters/sharp.js';
import { createStorage } from '../../adapters/storage.js';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import type { RunningWorkers } from '../../worker.js';

const WORKER_TIMEOUT = { timeout: 60_000, interval: 200 };
const SCALE = 1.5;

let t: TestContext;
let s3: S3Client;
let mailer: Mailer;
let running: RunningWorkers;
let admin: TestClient;
/** The first test's owner of the cars and their start numbers. */
let owner: SignedIn;
const cars: number[] = [];

beforeAll(async () => {
  t = await createTestContext({ relay: true });
  s3 = createS3Client(t.config.s3);
  mailer = createTestMailer(t);
  running = startTestWorkers(t, { mailer, s3 });
  admin = (await t.signIn('admin')).client;
});
afterAll(async () => {
  await running?.close();
  mailer?.close();
  s3?.destroy();
  await t?.close();
});

/** A clean full-size photo of the car (a red-to-gold gradient JPEG), as the thumbnail job leaves it. */
async function insertPhoto(startNumber: number): Promise<void> {
  const em = t.orm.em.fork();
  const invitation = await em.findOneOrFail(Invitation, { edition: t.event.edition.id, startNumber });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#8b1a1a"/><stop offset="1" stop-color="#d4a848"/></linearGradient></defs>
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

async function readPdf(data: Buffer, shot: string) {
  const pdf = await getDocument({ data: new Uint8Array(data), isEvalSupported: false }).promise;
  const page = await pdf.getPage(1);
  const content = await page.getTextContent();
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  const viewport = page.getViewport({ scale: SCALE });
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
  const [, , width, height] = page.view as [number, number, number, number];
  const operators = await page.getOperatorList();
  const images = operators.fnArray.filter(
    (op) => op === OPS.paintImageXObject || op === OPS.paintInlineImageXObject,
  ).length;
  await pdf.destroy();
  return { text, width, height, pages: pdf.numPages, images };
}

describe('the visitors award certificates', () => {
  it('renders an A4 certificate with the photo for each of the first three once voting closes', async () => {
    owner = await t.signIn('user');
    const names = ['Rote Göttin', 'Blauer Blitz', 'Grüner Gecko', 'Stiller Vierter'];
    for (const name of names) cars.push(await insertVotableCar(t, owner.id, name));
    await insertPhoto(cars[0]!);
    await openVotingForTest(t, new Date(t.event.start.getTime() - 24 * 3600_000));
    const year = t.event.edition.year;
    // 3, 2, 2 and 1 votes: the second place is shared, the fourth car is third by rank 4.
    const plan = [cars[0], cars[0], cars[0], cars[1], cars[1], cars[2], cars[2], cars[3]];
    for (const car of plan) {
      const voter = await t.signIn('user');
      const res = await voter.client.post(`/api/award/${year}/votes`, { startNumber: car });
      expect(res.status, res.text).toBe(201);
    }
    expect((await admin.post(`/api/admin/award/${year}/close`)).status).toBe(200);

    await expect
      .poll(
        async () =>
          (
            (await admin.get(`/api/admin/award/${year}`)).data.ranking as { certificateUrl: string | null }[]
          ).filter((row) => row.certificateUrl).length,
        WORKER_TIMEOUT,
      )
      .toBe(3);
    const view = (await admin.get(`/api/admin/award/${year}`)).data as {
      ranking: { startNumber: number; rank: number; votes: number; certificateUrl: string | null }[];
    };
    expect(view.ranking.map(({ startNumber, rank, votes }) => ({ startNumber, rank, votes }))).toEqual([
      { startNumber: cars[0], rank: 1, votes: 3 },
      { startNumber: cars[1], rank: 2, votes: 2 },
      { startNumber: cars[2], rank: 2, votes: 2 },
      { startNumber: cars[3], rank: 4, votes: 1 },
    ]);
    expect(view.ranking[3]!.certificateUrl).toBeNull();

    // Only admins read the certificates.
    const winner = view.ranking[0]!.certificateUrl!;
    expect((await admin.get(winner)).status).toBe(200);
    expect((await t.client().get(winner)).status).toBe(404);

    const storage = createStorage(s3, t.config.s3.bucket);
    const pdf = await storage.get(winner.replace('/objects/', ''), 20 * 1024 * 1024);
    const first = await readPdf(pdf!, 'award-certificate-1');
    expect(first.pages).toBe(1);
    expect([Math.round(first.width), Math.round(first.height)]).toEqual([595, 842]);
    for (const part of [
      'Urkunde',
      `Publikumsliebling ${year}`,
      'Erster Platz',
      'Rote Göttin',
      `Startnummer ${cars[0]}`,
      '3 Stimmen',
      t.event.name,
    ])
      expect(first.text).toContain(part);
    // The photo is in it: the PDF is far larger than one without.
    expect(first.images).toBe(1);
    const second = await storage.get(
      view.ranking[1]!.certificateUrl!.replace('/objects/', ''),
      20 * 1024 * 1024,
    );
    expect(pdf!.length).toBeGreaterThan(second!.length + 20_000);
    const shared = await readPdf(second!, 'award-certificate-2');
    expect(shared.text).toContain('Zweiter Platz');
    expect(shared.text).toContain('Blauer Blitz');
    expect(shared.images).toBe(0);
  });

  it("draws the winner's certificate anew without its photo when the owner withdraws the media consent", async () => {
    const em = t.orm.em.fork();
    const invitation = await em.findOneOrFail(Invitation, {
      edition: t.event.edition.id,
      startNumber: cars[0],
    });
    const consent = em.create(Consent, {
      user: em.getReference(User, owner.id),
      vehicle: invitation.vehicle,
      kind: 'media',
      version: CONSENTS.media.version,
      wording: CONSENTS.media.text,
      source: 'application',
      grantedAt: new Date(),
    });
    await em.flush();
    const year = t.event.edition.year;
    const winnerUrl = async () =>
      (
        (await admin.get(`/api/admin/award/${year}`)).data.ranking as {
          startNumber: number;
          certificateUrl: string | null;
        }[]
      ).find((row) => row.startNumber === cars[0])!.certificateUrl!;
    const storage = createStorage(s3, t.config.s3.bucket);
    const withPhoto = (await storage.get((await winnerUrl()).replace('/objects/', ''), 20 * 1024 * 1024))!;

    const withdrawn = await owner.client.post(`/api/account/consents/${consent.id}/withdraw`, {});
    expect(withdrawn.status, withdrawn.text).toBe(200);
    // The renderer is given no photo any more, and the stored certificate is drawn without it.
    const [task] = (await awardCertificateTasks(t.orm.em.fork(), t.event.edition.id)).filter(
      (row) => row.startNumber === cars[0],
    );
    expect(task).toMatchObject({ rank: 1, photoKey: null });
    const key = (await winnerUrl()).replace('/objects/', '');
    await expect
      .poll(async () => (await storage.get(key, 20 * 1024 * 1024))!.length, WORKER_TIMEOUT)
      .toBeLessThan(withPhoto.length - 20_000);
    const redrawn = await readPdf((await storage.get(key, 20 * 1024 * 1024))!, 'award-certificate-no-photo');
    expect(redrawn.images).toBe(0);
    expect(redrawn.text).toContain('Rote Göttin');
    expect(redrawn.text).toContain('Erster Platz');
  });
});

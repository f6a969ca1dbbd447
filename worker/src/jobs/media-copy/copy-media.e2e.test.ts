import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  createEdition,
  createS3Client,
  currentEdition,
  fullKey,
  makeCurrent,
  Media,
  objectPathOf,
  openApplications,
  renditionKey,
  Vehicle,
} from '@schlosstreffen/api/core';
import {
  createTestContext,
  createVehicle,
  type SignedIn,
  type TestContext,
  APPLYING_NOON,
} from '@schlosstreffen/api/testing';
import { THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMailer, startTestWorkers } from '../../testing.js';
import { gradientJpeg } from '../../test-photos.js';
import type { RunningWorkers } from '../../worker.js';

/** The next edition is opened and made current just before the app's clock (the harness's APPLYING_NOON). */
const BEFORE_APPLYING = new Date(APPLYING_NOON.getTime() - 60_000);

let t: TestContext;
let s3: S3Client;
let workers: RunningWorkers;
let owner: SignedIn;

beforeAll(async () => {
  t = await createTestContext();
  s3 = createS3Client(t.config.s3);
  workers = startTestWorkers(t, { mailer: createTestMailer(t), s3 });
  owner = await t.signIn('user', { firstName: 'Jürgen' });
});
afterAll(async () => {
  await workers?.close();
  s3?.destroy();
  await t?.close();
});

const exists = (key: string) =>
  s3.send(new HeadObjectCommand({ Bucket: t.config.s3.bucket, Key: key })).then(
    () => true,
    () => false,
  );

describe('a photo carried over to the next edition', () => {
  it("is copied, cleaned and rendered under keys of its own; last year's stays where it was", async () => {
    // Last year's application with a clean photo, as the worker left it.
    const { id: sourceId } = await createVehicle(owner.client, { brand: 'Audi', model: 'Sport Quattro' });
    const photoId = randomUUID();
    const sourceKey = fullKey(photoId, 'jpg');
    await s3.send(
      new PutObjectCommand({
        Bucket: t.config.s3.bucket,
        Key: sourceKey,
        Body: await gradientJpeg(1600, 1000),
        ContentType: 'image/jpeg',
      }),
    );
    const em = t.orm.em.fork();
    em.create(Media, {
      id: photoId,
      vehicle: em.getReference(Vehicle, sourceId),
      url: objectPathOf(sourceKey),
      thumbnailUrl: objectPathOf(renditionKey(photoId, THUMBNAIL_WIDTHS[0])),
      isHero: true,
    });
    await em.flush();

    const first = await currentEdition(em, APPLYING_NOON);
    await createEdition(em, { year: first.year + 1 });
    await openApplications(em, first.year + 1, BEFORE_APPLYING);
    await makeCurrent(em, first.year + 1, BEFORE_APPLYING);

    const again = await owner.client.post(`/api/vehicles/${sourceId}/reapply`, {
      consents: { media: true, quartett: true, contact: true },
    });
    expect(again.status, again.text).toBe(201);
    const copyId = (again.data.media as Array<{ id: string }>)[0]!.id;
    expect(copyId).not.toBe(photoId);

    await expect
      .poll(
        async () => {
          const copy = await t.orm.em.fork().findOneOrFail(Media, copyId);
          return {
            uploadKey: copy.uploadKey ?? null,
            rendered: Boolean(copy.thumbnailUrl),
            hero: copy.isHero,
          };
        },
        { timeout: 30_000, interval: 200 },
      )
      .toEqual({ uploadKey: null, rendered: true, hero: true });
    expect(await exists(fullKey(copyId, 'jpg'))).toBe(true);
    for (const width of THUMBNAIL_WIDTHS) expect(await exists(renditionKey(copyId, width))).toBe(true);
    // Last year's photo is untouched: its application keeps it as it was.
    expect(await exists(sourceKey)).toBe(true);
    expect((await t.orm.em.fork().findOneOrFail(Media, photoId)).url).toBe(objectPathOf(sourceKey));
  });
});

/**
 * R8: camera photos (4000 × 3000 JPEGs of about 8 MB) uploaded the way the browser does it, by
 * several owners at once: `POST /api/objects/upload` signs a PUT, the bytes go straight to S3,
 * `POST /api/vehicles/{id}/media` attaches them; each owner uploads its photos one after the other.
 * Per photo the clock runs from its attach's answer until its renditions are recorded (the media row
 * gets its thumbnail, polled every POLL_MS). The worker's rate (photos per second of the time it had
 * at least one of them running, from BullMQ's processedOn and finishedOn) is compared with raw sharp
 * doing the same renditions on the same photos in a child process with the worker's parallelism,
 * each on the machine alone: raw sharp runs after the uploads, so the worker's rate for the ratio is
 * taken the same way, from the same photos uploaded first and attached while the media queue is
 * paused, then released at once; its rate while the uploads ran beside it is reported too. At the end every upload must be gone and every
 * rendition stored.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client, fullKey, renditionKey, type Queues } from '@schlosstreffen/api/core';
import type { EmbeddedS3 } from '@schlosstreffen/infra/dev-services';
import { THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import type { RawThumbnailsResult } from '../children/raw-thumbnails.js';
import { Client } from '../http.js';
import { BIG_PHOTO, makePhoto, putObjects } from '../photos.js';
import { withDatabase } from '../seed.js';
import { withQueues } from '../queues.js';
import { REFERENCE_SPEED, WORKER_PROCESS_ENV } from '../settings.js';
import { firstMessage, s3Settings, spawnScript } from '../stack.js';
import { formatSpeed, inReferenceUnits, percentile, type Figure, type Speed } from '../stats.js';
import { describeAccount, workerAccount, type WorkerAccount } from '../thumbnail-account.js';

const OWNERS = 5;
const PER_OWNER = 8;
const DISTINCT = 8;
const WARMUP = 4;
const POLL_MS = 25;
const TIMEOUT_MS = 300_000;

interface Upload {
  mediaId: string;
  uploadKey: string;
  attached: number;
  ready?: number;
}

async function owner(index: number): Promise<{ client: Client; vehicleId: string }> {
  const client = new Client();
  await client.register({
    email: `uploader-${index}-${randomUUID().slice(0, 8)}@bench.test`,
    password: 'bench-uploader-password',
    firstName: 'Foto',
    lastName: `Nr${index}`,
  });
  const vehicle = await client.json<{ id: string }>(
    'POST',
    '/api/vehicles',
    {
      brand: 'Audi',
      model: 'S2',
      year: 1994,
      ps: 230,
      weightKg: 1400,
      topSpeedKmh: 248,
      zeroToHundredS: 5.9,
    },
    201,
  );
  return { client, vehicleId: vehicle.id };
}

/** The browser's first steps: sign, PUT to S3; the object path to attach. */
async function stage(client: Client, photo: Buffer, name: string): Promise<string> {
  const signed = await client.json<{
    uploadURL: string;
    headers: Record<string, string>;
    objectPath: string;
  }>('POST', '/api/objects/upload', { filename: name, type: 'image/jpeg', size: photo.length });
  const put = await fetch(signed.uploadURL, {
    method: 'PUT',
    headers: signed.headers,
    body: new Uint8Array(photo),
  });
  if (!put.ok) throw new Error(`PUT ${name} answered ${put.status}`);
  if (!signed.objectPath.startsWith('/objects/')) throw new Error(`object path ${signed.objectPath}`);
  return signed.objectPath;
}

async function attach(client: Client, vehicleId: string, objectPath: string): Promise<Upload> {
  const media = await client.json<{ id: string }>(
    'POST',
    `/api/vehicles/${vehicleId}/media`,
    { url: objectPath },
    201,
  );
  return {
    mediaId: media.id,
    uploadKey: objectPath.slice('/objects/'.length),
    attached: performance.now(),
  };
}

/** The real flow: sign, PUT to S3, attach. */
async function upload(client: Client, vehicleId: string, photo: Buffer, name: string): Promise<Upload> {
  return attach(client, vehicleId, await stage(client, photo, name));
}

type Job = Awaited<ReturnType<Queues['media']['getJobs']>>[number];
type JobState = Extract<Parameters<Queues['media']['getJobs']>[0], unknown[]>[number];

/** The thumbnail jobs of these media that are in one of `states`. */
async function thumbnailJobs(queues: Queues, mediaIds: string[], states: JobState[]): Promise<Job[]> {
  const wanted = new Set(mediaIds);
  return (await queues.media.getJobs(states, 0, -1)).filter(
    (job) => job.name === 'media.thumbnail' && wanted.has((job.data as { mediaId: string }).mediaId),
  );
}

/**
 * The worker on its own, as raw sharp runs: the same photos in the same order for other owners,
 * uploaded first (untimed), then attached while the media queue is paused, so the api's work for
 * the attaches is done before the worker starts, then released at once; its photos per second of
 * the time it had one of them running.
 */
async function workerAlone(
  photos: Buffer[],
): Promise<{ rate: number; busy: number; items: Upload[]; jobs: WorkerAccount }> {
  const others = await Promise.all(Array.from({ length: OWNERS }, (_, index) => owner(OWNERS + 1 + index)));
  const staged = await Promise.all(
    others.map(async ({ client, vehicleId }, index) => {
      const paths: { client: Client; vehicleId: string; path: string }[] = [];
      for (let k = 0; k < PER_OWNER; k++) {
        const photo = photos[(index + k) % DISTINCT]!;
        paths.push({ client, vehicleId, path: await stage(client, photo, `alone-${index}-${k}.jpg`) });
      }
      return paths;
    }),
  );
  const items = await withQueues(async (queues) => {
    await queues.media.pause();
    try {
      const attached = await Promise.all(
        staged.flat().map(({ client, vehicleId, path }) => attach(client, vehicleId, path)),
      );
      // Every attach's job handed on by the outbox relay and waiting.
      const ids = attached.map((item) => item.mediaId);
      const deadline = performance.now() + 30_000;
      while ((await thumbnailJobs(queues, ids, ['wait', 'prioritized'])).length < ids.length) {
        if (performance.now() > deadline) throw new Error('thumbnail jobs not queued in time');
        await sleep(POLL_MS);
      }
      return attached;
    } finally {
      await queues.media.resume();
    }
  });
  await untilReady(items, () => false);
  const jobs = await account(items.map((item) => item.mediaId));
  return { rate: items.length / jobs.busy, busy: jobs.busy, items, jobs };
}

/** Stamps each upload's ready time as its renditions are recorded. */
async function untilReady(uploads: Upload[], more: () => boolean): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  await withDatabase(async (db) => {
    for (;;) {
      const waiting = uploads.filter((item) => item.ready === undefined);
      if (waiting.length) {
        const { rows } = await db.query<{ id: string }>(
          'select id from media where id = any($1::uuid[]) and thumbnail_url is not null',
          [waiting.map((item) => item.mediaId)],
        );
        const now = performance.now();
        const ready = new Set(rows.map((row) => row.id));
        for (const item of waiting) if (ready.has(item.mediaId)) item.ready = now;
      }
      if (!more() && uploads.every((item) => item.ready !== undefined)) return;
      if (performance.now() > deadline) {
        throw new Error(
          `${uploads.filter((item) => item.ready === undefined).length} photos not ready in time`,
        );
      }
      await sleep(POLL_MS);
    }
  });
}

/** The account of these media's thumbnail jobs, once all have completed: busy time and stages. */
function account(mediaIds: string[]): Promise<WorkerAccount> {
  return withQueues(async (queues) => {
    // A job records the renditions before it deletes the upload and completes: wait for the last.
    const deadline = performance.now() + 10_000;
    let jobs = await thumbnailJobs(queues, mediaIds, ['completed']);
    while (jobs.length < mediaIds.length && performance.now() < deadline) {
      await sleep(POLL_MS);
      jobs = await thumbnailJobs(queues, mediaIds, ['completed']);
    }
    if (jobs.length < mediaIds.length) throw new Error(`only ${jobs.length} thumbnail jobs found`);
    return workerAccount(jobs);
  });
}

/** Every upload gone (row and object), every rendition stored. */
async function checkClean(s3: S3Client, bucket: string, uploads: Upload[]): Promise<void> {
  const { rows } = await withDatabase((db) =>
    db.query<{ id: string; upload_key: string | null; approval_status: string }>(
      'select id, upload_key, approval_status from media where id = any($1::uuid[])',
      [uploads.map((item) => item.mediaId)],
    ),
  );
  const unclean = rows.filter((row) => row.upload_key !== null || row.approval_status === 'rejected');
  if (rows.length !== uploads.length || unclean.length) {
    throw new Error(`${unclean.length} of ${rows.length} photos kept their upload or were rejected`);
  }
  const exists = (key: string) =>
    s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
      () => true,
      (error: { name?: string }) => {
        if (error.name === 'NotFound') return false;
        throw error;
      },
    );
  for (const item of uploads) {
    if (await exists(item.uploadKey)) throw new Error(`upload ${item.uploadKey} still stored`);
    const renditions = [
      fullKey(item.mediaId, 'jpg'),
      ...THUMBNAIL_WIDTHS.map((w) => renditionKey(item.mediaId, w)),
    ];
    for (const key of renditions) {
      if (!(await exists(key))) throw new Error(`rendition ${key} missing`);
    }
  }
}

export async function uploads(s3: EmbeddedS3, concurrency: number): Promise<Figure[]> {
  const photos = await Promise.all(
    Array.from({ length: DISTINCT }, (_, index) => makePhoto(index, BIG_PHOTO)),
  );
  const mb = photos.reduce((sum, photo) => sum + photo.length, 0) / photos.length / 1024 ** 2;
  const owners = await Promise.all(Array.from({ length: OWNERS + 1 }, (_, index) => owner(index)));
  const warm = owners.pop()!;

  // Warm-up: a few photos through the same flow, all ready before the measured ones start.
  const warmups: Upload[] = [];
  for (let k = 0; k < WARMUP; k++)
    warmups.push(await upload(warm.client, warm.vehicleId, photos[k]!, `warm-${k}.jpg`));
  await untilReady(warmups, () => false);

  const measured: Upload[] = [];
  let uploading = true;
  const clients = owners.map(async ({ client, vehicleId }, index) => {
    for (let k = 0; k < PER_OWNER; k++) {
      const item = await upload(
        client,
        vehicleId,
        photos[(index + k) % DISTINCT]!,
        `photo-${index}-${k}.jpg`,
      );
      measured.push(item);
    }
  });
  const watching = untilReady(measured, () => uploading);
  try {
    await Promise.all(clients);
  } finally {
    uploading = false;
  }
  await watching;

  const client = createS3Client({ ...s3, publicEndpoint: s3.endpoint });
  try {
    await checkClean(client, s3.bucket, measured);
    // The reference reads copies of the same photos, in the same order, from the same S3.
    const sources = measured.map((_, index) => `bench-raw/r8-source/${index}.jpg`);
    const order = owners.flatMap((_, index) =>
      Array.from({ length: PER_OWNER }, (_, k) => photos[(index + k) % DISTINCT]!),
    );
    await putObjects(
      client,
      s3.bucket,
      sources.map((key, index) => ({ key, body: order[index]!, contentType: 'image/jpeg' })),
      4,
    );
    const perPhoto = measured.map((item) => (item.ready! - item.attached) / 1000);
    const first = Math.min(...measured.map((item) => item.attached));
    const last = Math.max(...measured.map((item) => item.ready!));
    const lastAttach = Math.max(...measured.map((item) => item.attached));
    const { busy } = await account(measured.map((item) => item.mediaId));
    const workerRate = measured.length / busy;
    console.error(
      `  [r8] worker: p95 ${percentile(perPhoto, 95).toFixed(2)} s, ${workerRate.toFixed(2)} photos/s; ` +
        `attaches over ${((lastAttach - first) / 1000).toFixed(1)} s, all ready ${((last - first) / 1000).toFixed(1)} s after the first`,
    );
    const alone = await workerAlone(photos);
    await checkClean(client, s3.bucket, alone.items);
    const raw = await rawThumbnails(s3, sources, sources.slice(0, WARMUP), concurrency);

    const rawRate = raw.jobs / (raw.ms / 1000);
    // The p95 budget is the reference machine's, scaled by raw sharp's rate on the same photos.
    const speed: Speed = {
      name: 'raw sharp',
      value: rawRate,
      reference: REFERENCE_SPEED.rawSharp,
      unit: 'photos/s',
    };
    const what = `${measured.length} photos ${BIG_PHOTO.width}×${BIG_PHOTO.height} of ${mb.toFixed(1)} MB, ${OWNERS} owners at once`;
    return [
      inReferenceUnits(
        {
          name: 'r8.uploads.p95',
          value: percentile(perPhoto, 95),
          unit: 's',
          budget: { op: '<=', limit: 5 },
          reference: `attach answered → renditions recorded; p50 ${percentile(perPhoto, 50).toFixed(2)} s, max ${Math.max(...perPhoto).toFixed(2)} s; ${what}`,
        },
        speed,
      ),
      {
        name: 'r8.uploads.ratio',
        value: alone.rate / rawRate,
        unit: 'x',
        budget: { op: '>=', limit: 0.9 },
        reference: `worker ${alone.rate.toFixed(2)} photos/s (the same ${alone.items.length} photos uploaded first, attached while the queue was paused, then released at once: ${alone.busy.toFixed(1)} s with a job running) ÷ raw sharp ${rawRate.toFixed(2)} photos/s (concurrency ${concurrency})`,
      },
      { name: 'r8.uploads.worker_rate', value: alone.rate, unit: 'photos/s' },
      {
        name: 'r8.uploads.ms_per_photo',
        value: (alone.busy * 1000 * concurrency) / alone.items.length,
        unit: 'ms',
        reference: describeAccount(
          { ms: alone.busy * 1000, photos: alone.items.length, jobs: alone.jobs },
          raw,
          concurrency,
        ),
      },
      {
        name: 'r8.uploads.worker_rate_while_uploading',
        value: workerRate,
        unit: 'photos/s',
        reference: `${(workerRate / rawRate).toFixed(2)} of raw sharp: ${measured.length} in ${busy.toFixed(1)} s with a job running, sharing the 2 cores with the uploads; all ready ${((last - first) / 1000).toFixed(1)} s after the first attach, attaches over ${((lastAttach - first) / 1000).toFixed(1)} s`,
      },
      { name: 'r8.uploads.raw_rate', value: rawRate, unit: 'photos/s', reference: formatSpeed(speed) },
    ];
  } finally {
    client.destroy();
  }
}

/** The reference in a child process, in the worker's process environment (the same allocator too). */
async function rawThumbnails(
  s3: EmbeddedS3,
  keys: string[],
  warmupKeys: string[],
  parallel: number,
): Promise<RawThumbnailsResult> {
  const raw = spawnScript('raw-thumbnails', 'children/raw-thumbnails.js', {
    ...process.env,
    ...WORKER_PROCESS_ENV,
    NODE_ENV: 'production',
  });
  const answer = firstMessage<RawThumbnailsResult>(raw);
  raw.child.send({ s3: s3Settings(s3), keys, warmupKeys, parallel });
  const result = await answer;
  await raw.stop();
  return result;
}

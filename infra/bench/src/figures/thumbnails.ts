/**
 * R3: thumbnail jobs through the worker process against raw sharp doing the same work in a child
 * process with the same parallelism. The jobs are added straight to the queue the worker reads (not
 * through the outbox, whose relay polls), so the clock starts at enqueue; it stops at the last job's
 * finish (BullMQ's finishedOn), which comes right after its media row is written.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createS3Client, type Queues } from '@schlosstreffen/api/core';
import type { EmbeddedS3 } from '@schlosstreffen/infra/dev-services';
import type { RawThumbnailsResult, RawThumbnailsTask } from '../children/raw-thumbnails.js';
import { putObjects } from '../photos.js';
import { withDatabase, type Seeded } from '../seed.js';
import { withQueues } from '../queues.js';
import { WORKER_PROCESS_ENV } from '../settings.js';
import { firstMessage, s3Settings, spawnScript } from '../stack.js';
import type { Figure } from '../stats.js';
import { describeAccount, workerAccount, type RawStages } from '../thumbnail-account.js';

const JOBS = 80;

interface Image {
  mediaId: string;
  key: string;
  rawKey: string;
}

export async function thumbnails(
  s3: EmbeddedS3,
  photos: readonly Buffer[],
  drafts: Seeded['drafts'],
  concurrency: number,
): Promise<Figure[]> {
  const warmup = concurrency * 2;
  if (drafts.length < JOBS + warmup) throw new Error(`only ${drafts.length} draft vehicles`);
  // One more image for each of these draft vehicles (they have five): the uploads in S3, the rows
  // as attaching creates them (no renditions yet). The worker deletes each upload once it is clean,
  // so the raw reference reads copies of its own.
  const images: Image[] = drafts.slice(0, JOBS + warmup).map((vehicle, index) => ({
    mediaId: randomUUID(),
    key: `uploads/${vehicle.userId}/${randomUUID()}.jpg`,
    rawKey: `bench-raw/source/${index}.jpg`,
  }));
  const client = createS3Client({ ...s3, publicEndpoint: s3.endpoint });
  await putObjects(
    client,
    s3.bucket,
    images.flatMap((image, index) =>
      [image.key, image.rawKey].map((key) => ({
        key,
        body: photos[index % photos.length]!,
        contentType: 'image/jpeg',
      })),
    ),
  );
  client.destroy();
  await withDatabase((db) =>
    db.query(
      `insert into media (id, vehicle_id, type, url, upload_key, is_hero, priority, approval_status, created_at)
       select id, vehicle_id, 'image', '/objects/media/' || id || '/full.jpg', key, false, 5, 'auto', now()
       from unnest($1::uuid[], $2::uuid[], $3::text[]) as t(id, vehicle_id, key)`,
      [
        images.map((i) => i.mediaId),
        drafts.slice(0, images.length).map((d) => d.id),
        images.map((i) => i.key),
      ],
    ),
  );

  return withQueues(async (queues) => {
    const warm = images.slice(0, warmup);
    const measured = images.slice(warmup);
    await runJobs(queues.media, warm);
    // Worker and reference take turns (A B A B) on halves of the photos, so a slow spell of the
    // machine does not land on one side only.
    const half = Math.ceil(measured.length / 2);
    const worker = { ms: 0, jobs: 0 };
    const reference = { ms: 0, jobs: 0 };
    const done: Completed[] = [];
    const rawStages: RawStages[] = [];
    for (const batch of [measured.slice(0, half), measured.slice(half)]) {
      const run = await runJobs(queues.media, batch);
      worker.ms += run.ms;
      worker.jobs += batch.length;
      done.push(...run.jobs);
      const raw = await rawThumbnails({
        s3: s3Settings(s3),
        keys: batch.map((image) => image.rawKey),
        warmupKeys: warm.map((image) => image.rawKey),
        parallel: concurrency,
      });
      reference.ms += raw.ms;
      reference.jobs += raw.jobs;
      rawStages.push(raw.stages);
    }
    // Both turns are equally long, so the mean of the turns' means is the mean per photo.
    const stages = Object.fromEntries(
      (Object.keys(rawStages[0]!) as (keyof RawStages)[]).map((stage) => [
        stage,
        rawStages.reduce((sum, turn) => sum + turn[stage], 0) / rawStages.length,
      ]),
    ) as RawStages;

    const workerRate = (worker.jobs / worker.ms) * 1000;
    const rawRate = (reference.jobs / reference.ms) * 1000;
    return [
      {
        name: 'r3.thumbnails.ratio',
        value: workerRate / rawRate,
        unit: 'x',
        budget: { op: '>=', limit: 0.85 },
        reference: `worker ${workerRate.toFixed(2)} jobs/s ÷ raw sharp ${rawRate.toFixed(2)} jobs/s (${measured.length} photos 1600×1000 in turns of ${half}, concurrency ${concurrency})`,
      },
      { name: 'r3.thumbnails.worker_rate', value: workerRate, unit: 'jobs/s' },
      { name: 'r3.thumbnails.raw_rate', value: rawRate, unit: 'jobs/s' },
      {
        name: 'r3.thumbnails.ms_per_photo',
        value: (worker.ms * concurrency) / worker.jobs,
        unit: 'ms',
        reference: describeAccount(
          { ms: worker.ms, photos: worker.jobs, jobs: workerAccount(done) },
          { ...reference, stages },
          concurrency,
        ),
      },
    ];
  });
}

/** The reference in a child process, in the worker's process environment (the same allocator too). */
async function rawThumbnails(task: RawThumbnailsTask): Promise<RawThumbnailsResult> {
  const raw = spawnScript('raw-thumbnails', 'children/raw-thumbnails.js', {
    ...process.env,
    ...WORKER_PROCESS_ENV,
    NODE_ENV: 'production',
  });
  const answer = firstMessage<RawThumbnailsResult>(raw);
  raw.child.send(task);
  const result = await answer;
  await raw.stop();
  return result;
}

type Completed = NonNullable<Awaited<ReturnType<Queues['media']['getJob']>>>;

/** Adds one media.thumbnail job per image; waits for all and checks that every row has its thumbnail. */
async function runJobs(
  queue: Queues['media'],
  images: readonly Image[],
): Promise<{ ms: number; jobs: Completed[] }> {
  const jobIds = images.map(() => randomUUID());
  const completedBefore = await queue.getCompletedCount();
  const enqueued = Date.now();
  await queue.addBulk(
    images.map((image, index) => ({
      name: 'media.thumbnail',
      data: { mediaId: image.mediaId },
      opts: { jobId: jobIds[index] },
    })),
  );
  const deadline = Date.now() + 600_000;
  for (;;) {
    const completed = (await queue.getCompletedCount()) - completedBefore;
    if (completed === images.length) break;
    const failed = await queue.getFailedCount();
    if (failed > 0 || Date.now() > deadline) {
      throw new Error(`thumbnails: ${completed} of ${images.length} done, ${failed} failed`);
    }
    await sleep(50);
  }
  const jobs = await Promise.all(jobIds.map((id) => queue.getJob(id)));
  const finished = Math.max(...jobs.map((job) => job?.finishedOn ?? Number.NaN));
  const statuses = new Set(jobs.map((job) => (job?.returnvalue as { status?: string } | undefined)?.status));
  const written = await withDatabase((db) =>
    db.query<{ n: number }>(
      'select count(*)::int as n from media where id = any($1::uuid[]) and thumbnail_url is not null',
      [images.map((image) => image.mediaId)],
    ),
  );
  if (
    !Number.isFinite(finished) ||
    statuses.size !== 1 ||
    !statuses.has('done') ||
    written.rows[0]!.n !== images.length
  ) {
    throw new Error(
      `thumbnail jobs ended as ${[...statuses].join(', ')}; ${written.rows[0]!.n} rows written`,
    );
  }
  return { ms: finished - enqueued, jobs: jobs as Completed[] };
}

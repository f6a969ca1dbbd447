/**
 * R3's and R8's reference: the thumbnail work without queue, database or framework. The same inputs
 * from the same S3 through the worker's storage adapter, the worker's own rendering function (its
 * sharp pipeline and settings), the worker's garbage collection settings, the same puts (the
 * full-size copy as soon as it is made, then the sizes), with `parallel` lanes like a worker's
 * concurrency.
 */
import { createS3Client } from '@schlosstreffen/api/core';
import { MAX_IMAGE_BYTES } from '@schlosstreffen/shared';
import { applyGcSettings } from '@schlosstreffen/worker/gc-settings';
import { createStorage } from '@schlosstreffen/worker/storage';
import { renderRenditions } from '@schlosstreffen/worker/renditions';
import type { S3Settings } from '@schlosstreffen/infra/dev-services';
import { RAW_STAGES, type RawStages } from '../thumbnail-account.js';

export interface RawThumbnailsTask {
  s3: S3Settings;
  keys: string[];
  warmupKeys: string[];
  parallel: number;
}

export interface RawThumbnailsResult {
  ms: number;
  jobs: number;
  /** Mean ms per photo: the read, the rendering, the puts still running after it. */
  stages: RawStages;
}

// As the worker's process does at start.
applyGcSettings();

process.once('message', (message) => {
  void main(message as RawThumbnailsTask).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});

async function main(task: RawThumbnailsTask) {
  const s3 = createS3Client({ ...task.s3, publicEndpoint: task.s3.endpoint });
  const storage = createStorage(s3, task.s3.bucket);

  let timings: RawStages[] = [];
  const thumbnail = async (key: string, index: number) => {
    const started = performance.now();
    const original = await storage.get(key, MAX_IMAGE_BYTES);
    if (!original) throw new Error(`missing ${key}`);
    const read = performance.now();
    const cacheControl = 'public, max-age=31536000, immutable';
    // As the job: the full-size copy is stored while the sizes are made.
    let fullPut: Promise<void> | undefined;
    const { renditions } = await renderRenditions(original, 'jpg', {
      onFull: (full) => {
        fullPut = storage.put(`bench-raw/${index}/full.jpg`, full.data, {
          contentType: full.contentType,
          cacheControl,
        });
        fullPut.catch(() => undefined);
      },
    });
    const rendered = performance.now();
    await Promise.all([
      fullPut,
      ...renditions.map(({ width, data }) =>
        storage.put(`bench-raw/${index}/${width}.webp`, data, { contentType: 'image/webp', cacheControl }),
      ),
    ]);
    timings.push({ read: read - started, render: rendered - read, store: performance.now() - rendered });
  };

  const runAll = async (keys: string[]) => {
    let next = 0;
    const lane = async () => {
      while (next < keys.length) {
        const index = next++;
        await thumbnail(keys[index]!, index);
      }
    };
    await Promise.all(Array.from({ length: task.parallel }, lane));
  };

  await runAll(task.warmupKeys);
  timings = [];
  const started = performance.now();
  await runAll(task.keys);
  const ms = performance.now() - started;
  const stages = Object.fromEntries(
    RAW_STAGES.map((stage) => [stage, timings.reduce((sum, t) => sum + t[stage], 0) / timings.length]),
  ) as RawStages;
  const result: RawThumbnailsResult = { ms, jobs: task.keys.length, stages };
  process.send?.(result, () => process.exit(0));
}

/**
 * R3's reference: the thumbnail work without queue, database or framework. The same inputs from the
 * same S3 through the worker's storage adapter, the worker's own rendering function (its sharp
 * pipeline and sharp settings), the same puts (the full-size copy as soon as it is made, then the
 * sizes), with
 * `parallel` lanes like a worker's concurrency.
 */
import { createS3Client } from '@schlosstreffen/api/core';
import { MAX_IMAGE_BYTES } from '@schlosstreffen/shared';
import { createStorage } from '@schlosstreffen/worker/storage';
import { renderRenditions } from '@schlosstreffen/worker/renditions';
import type { S3Settings } from '@schlosstreffen/infra/dev-services';

export interface RawThumbnailsTask {
  s3: S3Settings;
  keys: string[];
  warmupKeys: string[];
  parallel: number;
}

export interface RawThumbnailsResult {
  ms: number;
  jobs: number;
}

process.once('message', (message) => {
  void main(message as RawThumbnailsTask).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});

async function main(task: RawThumbnailsTask) {
  const s3 = createS3Client({ ...task.s3, publicEndpoint: task.s3.endpoint });
  const storage = createStorage(s3, task.s3.bucket);

  const thumbnail = async (key: string, index: number) => {
    const original = await storage.get(key, MAX_IMAGE_BYTES);
    if (!original) throw new Error(`missing ${key}`);
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
    await Promise.all([
      fullPut,
      ...renditions.map(({ width, data }) =>
        storage.put(`bench-raw/${index}/${width}.webp`, data, { contentType: 'image/webp', cacheControl }),
      ),
    ]);
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
  const started = performance.now();
  await runAll(task.keys);
  const result: RawThumbnailsResult = { ms: performance.now() - started, jobs: task.keys.length };
  process.send?.(result, () => process.exit(0));
}

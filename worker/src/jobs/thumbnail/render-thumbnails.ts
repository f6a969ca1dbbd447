import type { EntityManager } from '@mikro-orm/postgresql';
import {
  forgetUpload,
  recordRenditions,
  rejectImage,
  renditionKey,
  renditionTask,
} from '@schlosstreffen/api/core';
import { IMAGE_REJECTION_REASONS, MAX_IMAGE_BYTES } from '@schlosstreffen/shared';
import { ObjectTooLargeError, type Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';
import { ImageRejected, renderRenditions, type RenderedImage } from './renditions.js';

const CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface RenderThumbnailsDeps {
  em: EntityManager;
  storage: Storage;
}

/**
 * Where a rendered image's job spent its time, in ms: its task read (database), the upload read
 * (S3), decoding and encoding (sharp), the rest of the renditions' puts, recording them (database)
 * and the upload's deletion (S3). Kept with the job's result (the bench's account of R3 and R8).
 */
export interface ThumbnailStages {
  task: number;
  read: number;
  render: number;
  store: number;
  record: number;
  cleanup: number;
}

export type ThumbnailResult =
  | { status: 'done'; width: number; height: number; fileSize: number; ms: ThumbnailStages }
  | { status: 'rejected'; reason: string }
  | { status: 'skipped' };

/**
 * Checks a newly attached image and writes its clean renditions: the full-size copy the media's url
 * names and the WebP sizes, all oriented and without metadata; then deletes the upload, so only
 * clean copies are ever stored and served. Idempotent: an image that was cleaned, or refused, is
 * skipped. A refused file is recorded on the row (rejected, with a German reason), its upload
 * deleted, and the job completes without retry; S3 and database errors are thrown, so BullMQ retries.
 */
export function createRenderThumbnails(deps: RenderThumbnailsDeps): JobHandler<'media.thumbnail'> {
  const deleteUpload = async (mediaId: string, uploadKey: string) => {
    await deps.storage.deleteMany([uploadKey]);
    await forgetUpload(deps.em, mediaId, uploadKey);
  };
  const reject = async (
    mediaId: string,
    uploadKey: string | null,
    reason: string,
  ): Promise<ThumbnailResult> => {
    const recorded = await rejectImage(deps.em, mediaId, reason, uploadKey);
    if (!recorded) return { status: 'skipped' };
    if (uploadKey) await deleteUpload(mediaId, uploadKey);
    return { status: 'rejected', reason };
  };

  return async ({ mediaId }): Promise<ThumbnailResult> => {
    const ms: Partial<ThumbnailStages> = {};
    let lapped = performance.now();
    const lap = (stage: keyof ThumbnailStages) => {
      const now = performance.now();
      ms[stage] = Math.round((now - lapped) * 10) / 10;
      lapped = now;
    };
    const task = await renditionTask(deps.em, mediaId);
    lap('task');
    if (task.action === 'skip') return { status: 'skipped' };
    if (task.action === 'delete-upload') {
      await deleteUpload(mediaId, task.uploadKey);
      return { status: 'skipped' };
    }
    if (task.action === 'reject') return reject(mediaId, null, task.reason);
    const { uploadKey } = task;

    let upload: Buffer | undefined;
    try {
      upload = await deps.storage.get(uploadKey, MAX_IMAGE_BYTES);
    } catch (error) {
      if (error instanceof ObjectTooLargeError)
        return reject(mediaId, uploadKey, IMAGE_REJECTION_REASONS.tooLarge);
      throw error;
    }
    if (!upload) return reject(mediaId, uploadKey, IMAGE_REJECTION_REASONS.missing);
    lap('read');

    // The full-size copy is stored while the sizes are made; all writes are awaited together, and a
    // failed one fails the job, whose retry writes them all again.
    const putObject = (key: string, data: Buffer, contentType: string) =>
      deps.storage.put(key, data, { contentType, cacheControl: CACHE_CONTROL });
    let fullPut: Promise<void> | undefined;
    let rendered: RenderedImage;
    try {
      rendered = await renderRenditions(upload, task.format, {
        onFull: ({ data, contentType }) => {
          fullPut = putObject(task.fullKey, data, contentType);
          // Awaited below (or after a refusal); until then a failure must not go unhandled.
          fullPut.catch(() => undefined);
        },
      });
    } catch (error) {
      if (fullPut) {
        // Refused after its full-size copy was made: take the copy back before recording the refusal.
        await fullPut.catch(() => undefined);
        await deps.storage.deleteMany([task.fullKey]);
      }
      if (error instanceof ImageRejected) return reject(mediaId, uploadKey, error.reason);
      throw error;
    }

    lap('render');
    const sizes = rendered.renditions.map(({ width, data }) => ({ key: renditionKey(mediaId, width), data }));
    await Promise.all([
      fullPut ?? putObject(task.fullKey, rendered.full.data, rendered.full.contentType),
      ...sizes.map(({ key, data }) => putObject(key, data, 'image/webp')),
    ]);
    lap('store');
    const written = [task.fullKey, ...sizes.map(({ key }) => key)];
    const fileSize = rendered.full.data.length;
    const saved = await recordRenditions(deps.em, mediaId, {
      width: rendered.width,
      height: rendered.height,
      fileSize,
    });
    lap('record');
    if (!saved) {
      // The row was deleted while the job ran: take back what this job wrote.
      await deps.storage.deleteMany(written);
      return { status: 'skipped' };
    }
    // Only the clean copies stay.
    await deps.storage.deleteMany([uploadKey]);
    lap('cleanup');
    return {
      status: 'done',
      width: rendered.width,
      height: rendered.height,
      fileSize,
      ms: ms as ThumbnailStages,
    };
  };
}

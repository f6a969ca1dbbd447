import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { keyOf, lockVehicles, Media, objectPathOf, refreshPublicVehicles } from '@schlosstreffen/api/db';
import {
  IMAGE_REJECTION_REASONS,
  MAX_IMAGE_BYTES,
  MediaThumbnailJobSchema,
  THUMBNAIL_WIDTHS,
  thumbnailKey,
} from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import * as v from 'valibot';
import { ObjectTooLargeError, type Storage } from '../adapters/storage.js';
import { ImageRejected, renderThumbnails, type RenderedThumbnails } from '../thumbnails/render.js';

const OWN_REASONS = new Set<string>(Object.values(IMAGE_REJECTION_REASONS));

const CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface ThumbnailProcessorDeps {
  em: EntityManager;
  storage: Storage;
}

export type ThumbnailResult =
  | { status: 'done'; width: number; height: number; fileSize: number }
  | { status: 'rejected'; reason: string }
  | { status: 'skipped' };

/**
 * Checks a newly attached image and writes its WebP renditions. Idempotent: a media row that already
 * has its thumbnail, or was refused, is skipped. A refused file is recorded on the row (rejected, with
 * a German reason), its original deleted, and the job completes without retry; S3 and database errors
 * are thrown, so BullMQ retries.
 */
export function createThumbnailProcessor(deps: ThumbnailProcessorDeps) {
  /** Runs `change` on the locked row with the public list refreshed; false when the row is gone. */
  const updateMedia = (mediaId: string, change: (media: Media, tx: EntityManager) => void | Promise<void>) =>
    deps.em.fork().transactional(async (tx) => {
      // Vehicle before media, in the order the API takes its locks, so the two never deadlock.
      const row = await tx.findOne(Media, { id: mediaId }, { fields: ['vehicle'] });
      if (!row) return false;
      await lockVehicles(tx, [row.vehicle.id]);
      const media = await tx.findOne(
        Media,
        { id: mediaId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!media) return false;
      await change(media, tx);
      await refreshPublicVehicles(tx, [media.vehicle.id]);
      await tx.flush();
      return true;
    });

  const reject = async (
    mediaId: string,
    key: string | undefined,
    reason: string,
  ): Promise<ThumbnailResult> => {
    const recorded = await updateMedia(mediaId, async (media, tx) => {
      media.approvalStatus = 'rejected';
      media.rejectionReason = reason;
      media.thumbnailUrl = null;
      if (media.isHero) {
        // A refused hero hands its role to the next usable image.
        media.isHero = false;
        const next = await tx.findOne(
          Media,
          { vehicle: media.vehicle.id, id: { $ne: media.id }, approvalStatus: { $ne: 'rejected' } },
          { orderBy: { priority: 'asc', createdAt: 'asc' } },
        );
        if (next) next.isHero = true;
      }
    });
    if (key) await deps.storage.deleteMany([key]);
    return recorded ? { status: 'rejected', reason } : { status: 'skipped' };
  };

  return async (job: Job): Promise<ThumbnailResult> => {
    const parsed = v.safeParse(MediaThumbnailJobSchema, job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid thumbnail job: ${parsed.issues[0]?.message}`);
    const { mediaId } = parsed.output;

    const media = await deps.em.fork().findOne(Media, { id: mediaId });
    if (!media || media.type !== 'image' || media.thumbnailUrl) return { status: 'skipped' };
    const key = keyOf(media.url);
    if (media.approvalStatus === 'rejected') {
      // Re-delivered after this processor refused the file: finish deleting the original.
      if (key && media.rejectionReason && OWN_REASONS.has(media.rejectionReason)) {
        await deps.storage.deleteMany([key]);
      }
      return { status: 'skipped' };
    }
    if (!key) return reject(mediaId, undefined, IMAGE_REJECTION_REASONS.missing);

    let original: Buffer | undefined;
    try {
      original = await deps.storage.get(key, MAX_IMAGE_BYTES);
    } catch (error) {
      if (error instanceof ObjectTooLargeError) return reject(mediaId, key, IMAGE_REJECTION_REASONS.tooLarge);
      throw error;
    }
    if (!original) return reject(mediaId, key, IMAGE_REJECTION_REASONS.missing);

    let rendered: RenderedThumbnails;
    try {
      rendered = await renderThumbnails(original);
    } catch (error) {
      if (error instanceof ImageRejected) return reject(mediaId, key, error.reason);
      throw error;
    }

    const written: string[] = [];
    for (const { width, data } of rendered.renditions) {
      const renditionKey = thumbnailKey(mediaId, width);
      await deps.storage.put(renditionKey, data, { contentType: 'image/webp', cacheControl: CACHE_CONTROL });
      written.push(renditionKey);
    }
    const fileSize = original.length;
    const saved = await updateMedia(mediaId, (row) => {
      row.width = rendered.width;
      row.height = rendered.height;
      row.fileSize = fileSize;
      row.thumbnailUrl = objectPathOf(thumbnailKey(mediaId, THUMBNAIL_WIDTHS[0]));
    });
    if (!saved) {
      // The row was deleted while the job ran: take back what this job wrote.
      await deps.storage.deleteMany(written);
      return { status: 'skipped' };
    }
    return { status: 'done', width: rendered.width, height: rendered.height, fileSize };
  };
}

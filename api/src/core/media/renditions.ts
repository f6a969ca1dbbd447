import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { IMAGE_REJECTION_REASONS, THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { keyOf, objectPathOf, parseKey, renditionKey, type FullFormat } from '../storage/objects.js';
import { cardMediaIdOf } from '../quartett/quartett.queries.js';
import { enqueuePrintPhoto } from '../quartett/print-photo.js';
import { Media } from '../model/media.entity.js';
import { lockVehicleOfMedia, mediaState, type LockedVehicle } from './media.queries.js';

/** What the rendition job has to do for an attached image. */
export type RenditionTask =
  /** Read the upload, write the clean full-size rendition (`fullKey`, in `format`) and the WebP sizes. */
  | { action: 'render'; uploadKey: string; fullKey: string; format: FullFormat }
  | { action: 'reject'; reason: string }
  /** Re-delivered after the image was refused or cleaned: finish deleting its upload. */
  | { action: 'delete-upload'; uploadKey: string }
  | { action: 'skip' };

const OWN_REASONS = new Set<string>(Object.values(IMAGE_REJECTION_REASONS));

/**
 * Images whose upload was cleaned (renditions written, upload deleted), or refused, are done; so are
 * rows that are gone.
 */
export async function renditionTask(em: EntityManager, mediaId: string): Promise<RenditionTask> {
  // One plain statement: the job asks this once per image, before its long work.
  const media = await mediaState(em, mediaId);
  if (!media || media.type !== 'image') return { action: 'skip' };
  if (media.approval_status === 'rejected') {
    return media.upload_key && media.rejection_reason && OWN_REASONS.has(media.rejection_reason)
      ? { action: 'delete-upload', uploadKey: media.upload_key }
      : { action: 'skip' };
  }
  if (!media.upload_key) {
    return media.thumbnail_url
      ? { action: 'skip' }
      : { action: 'reject', reason: IMAGE_REJECTION_REASONS.missing };
  }
  const fullKey = keyOf(media.url);
  const format = fullKey?.split('.').at(-1);
  if (!fullKey || parseKey(fullKey)?.kind !== 'full' || !format) {
    return { action: 'reject', reason: IMAGE_REJECTION_REASONS.missing };
  }
  return { action: 'render', uploadKey: media.upload_key, fullKey, format: format as FullFormat };
}

/**
 * Runs `change` on the locked row with the public list refreshed; false when the row is gone, or
 * `change` says the row is no longer what the job read (another run finished it meanwhile).
 */
function updateMedia(
  em: EntityManager,
  mediaId: string,
  change: (
    media: Media,
    tx: EntityManager,
    vehicle: LockedVehicle,
  ) => void | boolean | Promise<void | boolean>,
): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    // Vehicle before media, in the order the API takes its locks, so the two never deadlock.
    const vehicle = await lockVehicleOfMedia(tx, mediaId);
    if (!vehicle) return false;
    const media = await tx.findOne(
      Media,
      { id: mediaId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!media) return false;
    if ((await change(media, tx, vehicle)) === false) return false;
    await refreshPublicVehicles(tx, [vehicle.id]);
    await tx.flush();
    return true;
  });
}

/**
 * The clean renditions are written: record the image's size and forget its upload (the caller then
 * deletes the object); false when the row was deleted meanwhile.
 */
export function recordRenditions(
  em: EntityManager,
  mediaId: string,
  image: { width: number; height: number; fileSize: number },
): Promise<boolean> {
  return updateMedia(em, mediaId, async (row, tx, vehicle) => {
    // The upload's record stays until retention: a second PUT to its URL (valid a few minutes)
    // would store bytes again, which retention then removes; they are never served.
    row.uploadKey = null;
    row.width = image.width;
    row.height = image.height;
    row.fileSize = image.fileSize;
    row.thumbnailUrl = objectPathOf(renditionKey(mediaId, THUMBNAIL_WIDTHS[0]));
    // The clean renditions exist: when this image is now the card's (by the export's own rule) and
    // the card can be printed, its print photo can be made.
    if (vehicle.status !== 'confirmed') return;
    await tx.flush();
    if ((await cardMediaIdOf(tx, vehicle.id)) === row.id) enqueuePrintPhoto(tx, vehicle);
  });
}

/**
 * Records a refused file (with its German reason); a refused hero hands its role to the next image.
 * Only while the row still waits for the upload the job read (`uploadKey`, null when it had none):
 * a concurrent run that cleaned it meanwhile wins.
 */
export function rejectImage(
  em: EntityManager,
  mediaId: string,
  reason: string,
  uploadKey: string | null,
): Promise<boolean> {
  return updateMedia(em, mediaId, async (media, tx, vehicle) => {
    if ((media.uploadKey ?? null) !== uploadKey || media.approvalStatus === 'rejected') return false;
    media.approvalStatus = 'rejected';
    media.rejectionReason = reason;
    media.thumbnailUrl = null;
    if (media.isHero) {
      media.isHero = false;
      const next = await tx.findOne(
        Media,
        { vehicle: media.vehicle.id, id: { $ne: media.id }, approvalStatus: { $ne: 'rejected' } },
        { orderBy: { priority: 'asc', createdAt: 'asc' } },
      );
      if (next) next.isHero = true;
      enqueuePrintPhoto(tx, vehicle);
    }
  });
}

/** A refused image's upload is deleted: forget it (idempotent; retention removes its record). */
export async function forgetUpload(em: EntityManager, mediaId: string, uploadKey: string): Promise<void> {
  await em.fork().nativeUpdate(Media, { id: mediaId, uploadKey }, { uploadKey: null });
}

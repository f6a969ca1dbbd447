import type { EntityManager } from '@mikro-orm/postgresql';
import { mediaExists, printPhotoKey, printPhotoTask } from '@schlosstreffen/api/core';
import type { Storage } from '../../adapters/storage.js';
import type { JobHandler } from '../dispatch.js';
import {
  preparePhoto,
  PRINT_PHOTO_META,
  printPhotoFingerprint,
  readPrintPhoto,
} from '../quartett-export/pdf/photo.js';

export interface PreparePrintPhotoDeps {
  em: EntityManager;
  storage: Storage;
}

export type PrintPhotoResult =
  | { status: 'done'; mediaId: string; bytes: number }
  /** The stored print photo was made from this image and crop already. */
  | { status: 'current'; mediaId: string }
  /** No usable image (none, refused, not cleaned yet, undecodable): the card shows a placeholder. */
  | { status: 'none' }
  /** The image was deleted while the job ran. */
  | { status: 'skipped' };

/**
 * Writes the print photo of a vehicle's card: its hero (else first clean image) cut to the owner's
 * crop and zoom at print size, as the export places it, with what it was made from in its metadata
 * (the export checks that against the card's crop and prepares a stale one itself). Print photos of
 * the vehicle's other images are deleted. Idempotent: a current print photo is left as it is.
 */
export function createPreparePrintPhoto(deps: PreparePrintPhotoDeps): JobHandler<'quartett.print-photo'> {
  return async ({ vehicleId }): Promise<PrintPhotoResult> => {
    const task = await printPhotoTask(deps.em, vehicleId);
    const unused = task.others.map(printPhotoKey);
    const { photo } = task;
    if (!photo) {
      if (unused.length) await deps.storage.deleteMany(unused);
      return { status: 'none' };
    }
    const key = printPhotoKey(photo.mediaId);
    if (await readPrintPhoto(deps.storage, photo)) {
      if (unused.length) await deps.storage.deleteMany(unused);
      return { status: 'current', mediaId: photo.mediaId };
    }
    const data = await preparePhoto(deps.storage, photo);
    if (!data) {
      await deps.storage.deleteMany([key, ...unused]);
      return { status: 'none' };
    }
    await deps.storage.put(key, data, {
      contentType: 'image/jpeg',
      cacheControl: 'private, no-store',
      metadata: { [PRINT_PHOTO_META]: printPhotoFingerprint(photo) },
    });
    // Deleted meanwhile: its objects may be gone already, so take back what this job wrote.
    if (!(await mediaExists(deps.em, photo.mediaId))) {
      await deps.storage.deleteMany([key]);
      return { status: 'skipped' };
    }
    if (unused.length) await deps.storage.deleteMany(unused);
    return { status: 'done', mediaId: photo.mediaId, bytes: data.length };
  };
}

import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { vehicleDisplayName } from '@schlosstreffen/shared';
import type { PublicVehicleData } from '../model/public-vehicle.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { keyOf, renditionKey, shareImageKey } from '../storage/objects.js';
import { carShareRow } from './public-list.queries.js';

/** What a listed car's link preview shows: its hero photo as framed, its title, meeting and number. */
export interface ShareImageSource {
  vehicleId: string;
  title: string;
  edition: { year: number; name: string };
  startNumber: number;
  /** The hero's clean full-size copy and its 1280 px rendition (never the upload); null: no photo. */
  photo: { fullKey: string | null; renditionKey: string; cropX: number; cropY: number; scale: number } | null;
}

/** Changes whenever the preview's drawing changes, so every stored one is made again. */
export const SHARE_IMAGE_RENDERING = 'v1 1200x630 jpeg q82';

/** What of a list row its preview shows (the title and the hero as framed). */
export function sharedInputsOf(data: PublicVehicleData | null | undefined): string {
  if (!data) return '';
  const hero = data.hero;
  return JSON.stringify([
    vehicleDisplayName(data),
    hero ? [hero.url, hero.cropX, hero.cropY, hero.scale] : null,
  ]);
}

/** The preview's key for what it shows: a changed car or drawing gets a new address. */
export function shareImageKeyOf(source: ShareImageSource): string {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([source, SHARE_IMAGE_RENDERING]))
    .digest('hex')
    .slice(0, 32);
  return shareImageKey(source.vehicleId, fingerprint);
}

/**
 * What the preview of a car on the public list shows now, with the key the preview has (or would
 * have) and the one recorded; null when the car is not listed (it gets none).
 */
export async function shareImageTask(
  em: EntityManager,
  vehicleId: string,
): Promise<{ source: ShareImageSource; key: string; recorded: string | null } | null> {
  const row = await carShareRow(em, vehicleId);
  if (!row) return null;
  const data = row.data as PublicVehicleData;
  const hero = data.hero;
  const mediaId = hero ? /\/thumbs\/([^/]+)\//.exec(hero.thumbnailUrl ?? '')?.[1] : undefined;
  const fullKey = hero ? (keyOf(hero.url) ?? null) : null;
  const source: ShareImageSource = {
    vehicleId,
    title: vehicleDisplayName(data),
    edition: { year: row.year, name: row.name },
    startNumber: row.start_number,
    photo:
      hero && mediaId
        ? {
            fullKey,
            renditionKey: renditionKey(mediaId, 1280),
            cropX: Number(hero.cropX),
            cropY: Number(hero.cropY),
            scale: Number(hero.scale),
          }
        : null,
  };
  return { source, key: shareImageKeyOf(source), recorded: row.share_image };
}

/**
 * Records a stored preview as its car's, if the car still shows what it was made from (a later change
 * queued its own job); returns whether it was recorded and the key it replaced. The row's change
 * renders the car's page again, now with the preview.
 */
export async function recordShareImage(
  em: EntityManager,
  vehicleId: string,
  key: string,
): Promise<{ recorded: boolean; previous: string | null }> {
  return em.fork().transactional(async (tx) => {
    const row = await tx.findOne(
      PublicVehicle,
      { vehicle: vehicleId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const now = row && (await shareImageTask(tx, vehicleId));
    if (!row || !now || now.key !== key) return { recorded: false, previous: null };
    const previous = row.shareImage ?? null;
    if (previous !== key) row.shareImage = key;
    return { recorded: true, previous: previous === key ? null : previous };
  });
}

/** Queues the drawing of the car's link preview, in the caller's transaction (the job keeps a current one). */
export function enqueueShareImage(em: EntityManager, vehicleId: string): void {
  enqueue(em, 'share-image.render', { vehicleId });
}

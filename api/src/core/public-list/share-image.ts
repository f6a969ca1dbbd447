import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EDITION_MESSAGES, vehicleDisplayName } from '@schlosstreffen/shared';
import type { PublicVehicleData } from '../model/public-vehicle.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { keyOf, renditionKey, shareImageKey } from '../storage/objects.js';
import { selectRows } from '../db/db.queries.js';
import { notFound } from '../errors.js';
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

/** What of a list row its preview shows (the title and the hero as framed). */
export function sharedInputsOf(data: PublicVehicleData | null | undefined): string {
  if (!data) return '';
  const hero = data.hero;
  return JSON.stringify([
    vehicleDisplayName(data),
    hero ? [hero.url, hero.cropX, hero.cropY, hero.scale] : null,
  ]);
}

/**
 * The preview's key for what it shows and how it is drawn (`drawing`, the worker's version of its
 * drawing): a changed car, meeting or drawing gets a new address.
 */
export function shareImageKeyOf(source: ShareImageSource, drawing: string): string {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([source, drawing]))
    .digest('hex')
    .slice(0, 32);
  return shareImageKey(source.vehicleId, fingerprint);
}

/**
 * What the preview of a car on the public list shows now, with the key the preview has (or would
 * have, drawn as `drawing`) and the one recorded; null when the car is not listed (it gets none).
 */
export async function shareImageTask(
  em: EntityManager,
  vehicleId: string,
  drawing: string,
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
  return { source, key: shareImageKeyOf(source, drawing), recorded: row.share_image };
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
  drawing: string,
): Promise<{ recorded: boolean; previous: string | null }> {
  return em.fork().transactional(async (tx) => {
    const row = await tx.findOne(
      PublicVehicle,
      { vehicle: vehicleId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    const now = row && (await shareImageTask(tx, vehicleId, drawing));
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

/**
 * Queues the drawing of the link previews of every car on the public list of these editions, in the
 * caller's transaction; returns how many. For a change of what they show beyond each car: the
 * meeting's name, or the drawing itself. The job leaves a current preview as it is, so one queued
 * twice, or one that did not change, costs a read.
 */
export async function enqueueShareImagesOf(
  em: EntityManager,
  editionIds: readonly string[],
): Promise<number> {
  if (!editionIds.length) return 0;
  const rows = await selectRows<{ vehicle_id: string }>(
    em,
    `select vehicle_id from public_vehicle where edition_id in (${editionIds.map(() => '?').join(', ')})
      order by edition_id, vehicle_id`,
    [...editionIds],
  );
  for (const row of rows) enqueueShareImage(em, row.vehicle_id);
  return rows.length;
}

/**
 * Queues the link previews of the listed cars of the edition of `year`, or of every edition, in one
 * transaction (`npm run cli -- share-images:redraw`); returns how many were queued.
 */
export async function redrawShareImages(em: EntityManager, year?: number): Promise<number> {
  return em.transactional(async (tx) => {
    const editions = await selectRows<{ id: string }>(
      tx,
      year === undefined ? `select id from edition order by year` : `select id from edition where year = ?`,
      year === undefined ? [] : [year],
    );
    if (year !== undefined && !editions.length) throw notFound(EDITION_MESSAGES.unknown(year));
    return enqueueShareImagesOf(
      tx,
      editions.map((edition) => edition.id),
    );
  });
}

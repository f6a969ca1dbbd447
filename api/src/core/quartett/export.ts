import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  cardCode,
  QUARTETT_MESSAGES,
  quartettCardValues,
  vehicleDisplayName,
  type CardValue,
} from '@schlosstreffen/shared';
import { noWithdrawnConsent } from '../accounts/consent-state.js';
import { keyOf, objectPathOf } from '../storage/objects.js';
import type { Media } from '../media/media.entity.js';
import { Vehicle } from '../vehicles/vehicle.entity.js';
import { QuartettCard } from './quartett-card.entity.js';
import { QuartettSet } from './quartett-set.entity.js';

/** The hero image of a card and the owner's crop. */
export interface CardPhoto {
  mediaId: string;
  /** Bucket key of the clean full-size copy, the fallback when the 1280 px rendition is missing. */
  fullKey?: string;
  cropX: number;
  cropY: number;
  scale: number;
}

/** Everything a printed card shows of a vehicle. */
export interface PlannedCard {
  code: string;
  name: string;
  /** Model · year · colour. */
  subline: string;
  values: CardValue[];
  owner: string;
  photo?: CardPhoto;
}

export interface ExportPlan {
  title: string;
  version: number;
  cards: PlannedCard[];
}

/** Vehicles loaded per query while the cards are prepared. */
const BATCH = 200;

/** What a card shows of a vehicle (with its owner and media loaded). */
export function plannedCard(vehicle: Vehicle, code: string): PlannedCard {
  const card: PlannedCard = {
    code,
    name: vehicleDisplayName(vehicle),
    subline: [vehicle.model, vehicle.year, vehicle.color]
      .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
      .join(' · '),
    values: quartettCardValues(vehicle),
    owner: `${vehicle.user.firstName} ${vehicle.user.lastName}`.trim(),
  };
  const media = cardMediaOf(vehicle.media.getItems());
  if (media) card.photo = cardPhotoOf(media);
  return card;
}

/**
 * The image a vehicle's card shows: the hero, else the first clean image in the owner's order
 * (`media` sorted by priority, then creation); refused images and images not cleaned yet never.
 */
export function cardMediaOf(media: readonly Media[]): Media | undefined {
  const images = media.filter(
    (item) => item.type === 'image' && item.approvalStatus !== 'rejected' && !item.uploadKey,
  );
  return images.find((item) => item.isHero) ?? images[0];
}

export const cardPhotoOf = (media: Media): CardPhoto => ({
  mediaId: media.id,
  fullKey: keyOf(media.url),
  cropX: Number(media.cropX),
  cropY: Number(media.cropY),
  scale: Number(media.scale),
});

/** Whether the set still needs its PDF (it exists and is not ready). */
export async function exportPending(em: EntityManager, setId: string): Promise<boolean> {
  const set = await em.fork().findOne(QuartettSet, { id: setId });
  return Boolean(set && set.status !== 'ready');
}

/**
 * Fixes a set's cards and reads their data, in one transaction: status rendering, the card rows
 * written anew (confirmed vehicles by start number, then registration; none whose owner withdrew
 * the quartett consent), the card data from one
 * snapshot. Undefined when the set is gone or ready; 'empty' (and the set failed) without any
 * confirmed vehicle.
 */
export function planQuartettExport(
  em: EntityManager,
  setId: string,
): Promise<ExportPlan | 'empty' | undefined> {
  return em.fork().transactional(async (tx) => {
    const set = await tx.findOne(QuartettSet, { id: setId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!set || set.status === 'ready') return undefined;
    const { title, version } = set;
    await tx.nativeDelete(QuartettCard, { set: setId });
    const rows = await tx.execute<{ id: string }[]>(
      `select v.id from vehicle v left join invitation i on i.vehicle_id = v.id
       where v.status = 'confirmed' and ${noWithdrawnConsent('v', 'quartett')}
       order by i.start_number asc nulls last, v.created_at asc, v.id asc`,
    );
    const reset = { progress: 0, cardCount: 0, exportFileUrl: null, finishedAt: null };
    if (!rows.length) {
      await tx.nativeUpdate(
        QuartettSet,
        { id: setId },
        { ...reset, status: 'failed', error: QUARTETT_MESSAGES.exportWithoutCards },
      );
      return 'empty';
    }
    await tx.nativeUpdate(QuartettSet, { id: setId }, { ...reset, status: 'rendering', error: null });
    const ids = rows.map((row) => row.id);
    await tx.insertMany(
      QuartettCard,
      ids.map((vehicle, position) => ({
        id: randomUUID(),
        set: setId,
        vehicle,
        position,
        code: cardCode(position),
      })),
    );
    const cards: PlannedCard[] = [];
    for (let from = 0; from < ids.length; from += BATCH) {
      const batch = ids.slice(from, from + BATCH);
      const vehicles = await tx.find(Vehicle, { id: { $in: batch } }, { populate: ['user', 'media'] });
      const byId = new Map(vehicles.map((vehicle) => [vehicle.id, vehicle]));
      batch.forEach((id, offset) => cards.push(plannedCard(byId.get(id)!, cardCode(from + offset))));
      // Only plain card data is kept; the entities go.
      tx.clear();
    }
    return { title, version, cards };
  });
}

export async function recordExportProgress(em: EntityManager, setId: string, percent: number): Promise<void> {
  await em.fork().nativeUpdate(QuartettSet, { id: setId, status: 'rendering' }, { progress: percent });
}

export async function recordExportReady(
  em: EntityManager,
  setId: string,
  result: { key: string; cardCount: number },
): Promise<void> {
  await em.fork().nativeUpdate(
    QuartettSet,
    { id: setId },
    {
      status: 'ready',
      progress: 100,
      cardCount: result.cardCount,
      exportFileUrl: objectPathOf(result.key),
      error: null,
      finishedAt: new Date(),
    },
  );
}

/** Stores why an attempt failed (operators' text), unless the set is ready meanwhile. */
export async function recordExportFailed(em: EntityManager, setId: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await em
    .fork()
    .nativeUpdate(
      QuartettSet,
      { id: setId, status: { $ne: 'ready' } },
      { status: 'failed', error: message.slice(0, 2000) },
    );
}

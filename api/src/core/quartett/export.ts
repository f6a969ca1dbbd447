import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  cardCode,
  QUARTETT_MESSAGES,
  quartettCardValues,
  vehicleDisplayName,
  type CardValue,
} from '@schlosstreffen/shared';
import { keyOf, objectPathOf } from '../storage/objects.js';
import { QuartettCard } from '../model/quartett-card.entity.js';
import { QuartettSet } from '../model/quartett-set.entity.js';
import { cardRows, insertCards, type CardMediaRow, type CardRow } from './quartett.queries.js';

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

export const cardPhotoOf = (media: CardMediaRow): CardPhoto => ({
  mediaId: media.id,
  fullKey: keyOf(media.url),
  cropX: Number(media.crop_x),
  cropY: Number(media.crop_y),
  scale: Number(media.scale),
});

function plannedCard(row: CardRow, code: string): PlannedCard {
  const card: PlannedCard = {
    code,
    name: vehicleDisplayName(row),
    subline: [row.model, row.year, row.color]
      .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
      .join(' · '),
    values: quartettCardValues({
      ps: row.ps,
      torqueNm: row.torque_nm,
      zeroToHundredS: row.zero_to_hundred_s,
      topSpeedKmh: row.top_speed_kmh,
      cylinders: row.cylinders,
      weightKg: row.weight_kg,
    }),
    owner: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
  };
  if (row.media_id && row.media_url) {
    card.photo = cardPhotoOf({
      id: row.media_id,
      url: row.media_url,
      crop_x: row.crop_x ?? 50,
      crop_y: row.crop_y ?? 50,
      scale: row.scale ?? 100,
    });
  }
  return card;
}

/** Whether the set still needs its PDF (it exists and is not ready). */
export async function exportPending(em: EntityManager, setId: string): Promise<boolean> {
  const set = await em.fork().findOne(QuartettSet, { id: setId });
  return Boolean(set && set.status !== 'ready');
}

/**
 * Fixes a set's cards and reads their data, in one transaction: status rendering, the card rows
 * written anew (confirmed vehicles by start number, then registration; none whose owner withdrew
 * the quartett consent), the card data from one snapshot. Undefined when the set is gone or ready; 'empty' (and the set failed) without any
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
    // One query for every card's data.
    const rows = await cardRows(tx, set.edition.id);
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
    const codes = rows.map((_, position) => cardCode(position));
    await insertCards(
      tx,
      setId,
      rows.map((row) => row.vehicle_id),
      codes,
    );
    const cards = rows.map((row, position) => plannedCard(row, codes[position]!));
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

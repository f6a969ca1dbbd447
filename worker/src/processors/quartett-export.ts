import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { keyOf, objectPathOf, QuartettCard, QuartettSet, Vehicle } from '@schlosstreffen/api/db';
import { cardCode, QuartettExportJobSchema } from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import * as v from 'valibot';
import type { Storage } from '../adapters/storage.js';
import type { CardFace } from '../quartett/card.js';
import { preparePhoto, type PhotoSource } from '../quartett/photo.js';
import { renderQuartettPdf, type RenderCard } from '../quartett/render.js';

export interface QuartettExportDeps {
  em: EntityManager;
  storage: Storage;
  s3: S3Client;
  bucket: string;
  /** Printed on the card backs. */
  eventName: string;
}

export type QuartettExportResult =
  | { status: 'done'; cardCount: number; pages: number; key: string; bytes: number }
  | { status: 'failed'; reason: string }
  | { status: 'skipped' };

export const NO_CONFIRMED_VEHICLES =
  'Keine bestätigten Fahrzeuge: Der Quartett-Satz wurde ohne Karten abgebrochen.';

/** Object key of a set's print PDF. */
export const quartettExportKey = (version: number, setId: string) =>
  `exports/quartett/v${version}-${setId}.pdf`;

/** Vehicles loaded per query while the cards are prepared. */
const BATCH = 200;
/** Progress is written at most every this many percent. */
const PROGRESS_STEP = 2;
/** Rendering takes progress up to here; the upload completes it. */
const RENDER_SHARE = 95;

const numberDe = new Intl.NumberFormat('de-DE');
const decimalDe = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const NA = 'N/A';
const withUnit = (value: number | string | null | undefined, unit: string, format = numberDe) =>
  value === null || value === undefined || value === '' || Number.isNaN(Number(value))
    ? NA
    : `${format.format(Number(value))}${unit ? ` ${unit}` : ''}`;

/** What a card shows of a vehicle (with its owner and media loaded). */
export function cardOf(vehicle: Vehicle, code: string): RenderCard<PhotoSource> {
  const face: CardFace = {
    code,
    name: vehicle.name?.trim() || `${vehicle.brand} ${vehicle.model}`.trim(),
    subline: [vehicle.model, vehicle.year, vehicle.color]
      .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
      .join(' · '),
    values: [
      { label: 'Leistung', value: withUnit(vehicle.ps, 'PS') },
      { label: 'Drehmoment', value: withUnit(vehicle.torqueNm, 'Nm') },
      { label: '0-100 km/h', value: withUnit(vehicle.zeroToHundredS, 's', decimalDe) },
      { label: 'V-Max', value: withUnit(vehicle.topSpeedKmh, 'km/h') },
      { label: 'Zylinder', value: withUnit(vehicle.cylinders, '') },
      { label: 'Gewicht', value: withUnit(vehicle.weightKg, 'kg') },
    ],
    owner: `${vehicle.user.firstName} ${vehicle.user.lastName}`.trim(),
  };
  // The hero, else the first usable image in the owner's order; refused images never.
  const images = vehicle.media
    .getItems()
    .filter((item) => item.type === 'image' && item.approvalStatus !== 'rejected');
  const hero = images.find((item) => item.isHero) ?? images[0];
  if (!hero) return { face };
  return {
    face,
    photo: {
      mediaId: hero.id,
      originalKey: keyOf(hero.url),
      cropX: Number(hero.cropX),
      cropY: Number(hero.cropY),
      scale: Number(hero.scale),
    },
  };
}

interface Plan {
  title: string;
  version: number;
  cards: RenderCard<PhotoSource>[];
}

/**
 * Renders a quartett set's print PDF into S3. The set's cards are fixed first (confirmed vehicles by
 * start number, then registration); a redelivered job of a ready set is skipped, any other attempt
 * starts over. Errors are stored on the set and thrown, so BullMQ retries.
 */
export function createQuartettExportProcessor(deps: QuartettExportDeps) {
  /** Status rendering, the card rows written anew, the card data read in one snapshot. */
  const plan = (setId: string) =>
    deps.em.fork().transactional(async (tx): Promise<Plan | 'empty' | undefined> => {
      const set = await tx.findOne(QuartettSet, { id: setId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!set || set.status === 'ready') return undefined;
      const { title, version } = set;
      await tx.nativeDelete(QuartettCard, { set: setId });
      const rows = await tx.execute<{ id: string }[]>(
        `select v.id from vehicle v left join invitation i on i.vehicle_id = v.id
         where v.status = 'confirmed'
         order by i.start_number asc nulls last, v.created_at asc, v.id asc`,
      );
      const reset = { progress: 0, cardCount: 0, exportFileUrl: null, finishedAt: null };
      if (!rows.length) {
        await tx.nativeUpdate(
          QuartettSet,
          { id: setId },
          { ...reset, status: 'failed', error: NO_CONFIRMED_VEHICLES },
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
      const cards: RenderCard<PhotoSource>[] = [];
      for (let from = 0; from < ids.length; from += BATCH) {
        const batch = ids.slice(from, from + BATCH);
        const vehicles = await tx.find(Vehicle, { id: { $in: batch } }, { populate: ['user', 'media'] });
        const byId = new Map(vehicles.map((vehicle) => [vehicle.id, vehicle]));
        batch.forEach((id, offset) => cards.push(cardOf(byId.get(id)!, cardCode(from + offset))));
        // Only plain card data is kept; the entities go.
        tx.clear();
      }
      return { title, version, cards };
    });

  const setProgress = (setId: string, progress: number) =>
    deps.em.fork().nativeUpdate(QuartettSet, { id: setId, status: 'rendering' }, { progress });

  return async (job: Job): Promise<QuartettExportResult> => {
    const parsed = v.safeParse(QuartettExportJobSchema, job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid quartett job: ${parsed.issues[0]?.message}`);
    const { setId } = parsed.output;

    const existing = await deps.em.fork().findOne(QuartettSet, { id: setId });
    if (!existing || existing.status === 'ready') return { status: 'skipped' };

    const tmp = path.join(os.tmpdir(), `quartett-${setId}-${randomUUID()}.pdf`);
    try {
      const planned = await plan(setId);
      if (!planned) return { status: 'skipped' };
      if (planned === 'empty') return { status: 'failed', reason: NO_CONFIRMED_VEHICLES };

      let reported = 0;
      await job.updateProgress(0);
      const result = await renderQuartettPdf(createWriteStream(tmp), {
        title: planned.title,
        version: planned.version,
        eventName: deps.eventName,
        cards: planned.cards,
        loadPhoto: (photo) => preparePhoto(deps.storage, photo),
        onProgress: async (done, total) => {
          const percent = Math.floor((done / total) * RENDER_SHARE);
          if (percent < reported + PROGRESS_STEP) return;
          reported = percent;
          await job.updateProgress(percent);
          await setProgress(setId, percent);
        },
      });

      const key = quartettExportKey(planned.version, setId);
      const { size } = await stat(tmp);
      await deps.s3.send(
        new PutObjectCommand({
          Bucket: deps.bucket,
          Key: key,
          Body: createReadStream(tmp),
          ContentLength: size,
          ContentType: 'application/pdf',
          CacheControl: 'private, no-cache',
        }),
      );
      await deps.em.fork().nativeUpdate(
        QuartettSet,
        { id: setId },
        {
          status: 'ready',
          progress: 100,
          cardCount: result.cards,
          exportFileUrl: objectPathOf(key),
          error: null,
          finishedAt: new Date(),
        },
      );
      await job.updateProgress(100);
      return { status: 'done', cardCount: result.cards, pages: result.pages, key, bytes: size };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await deps.em
        .fork()
        .nativeUpdate(
          QuartettSet,
          { id: setId, status: { $ne: 'ready' } },
          { status: 'failed', error: message.slice(0, 2000) },
        )
        .catch(() => undefined);
      throw error;
    } finally {
      await rm(tmp, { force: true });
    }
  };
}

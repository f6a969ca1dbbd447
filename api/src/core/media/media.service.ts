import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, NotFound, type S3Client } from '@aws-sdk/client-s3';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CROP_DEFAULTS,
  IMAGE_MIME_TYPES,
  isStaffRole,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_VEHICLE,
  VEHICLE_MESSAGES,
  type MediaCreate,
  type MediaUpdate,
} from '@schlosstreffen/shared';
import { invalid, conflict, forbidden, notFound } from '../errors.js';
import { archiveRows } from './media.queries.js';
import { enqueue } from '../outbox/outbox.js';
import { journalErasure } from '../outbox/erasure-journal.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { enqueuePrintPhoto } from '../quartett/print-photo.js';
import { assertVehicleUnlocked } from '../quartett/vehicle-lock.js';
import { Upload } from '../model/upload.entity.js';
import { fullFormatOf, fullKey, keyOf, objectPathOf } from '../storage/objects.js';
import type { User } from '../model/user.entity.js';
import { authorize, isOwner } from '../vehicle-policy.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { Media } from '../model/media.entity.js';
import { mediaObjectKeys } from '../storage/objects.js';

export interface MediaServiceDeps {
  em: EntityManager;
  s3: S3Client;
  bucket: string;
  onOutbox?: () => void;
  /** The app's clock: whether the vehicle's edition is over (its photos then stay as they were). */
  now?: () => Date;
}

/** Crop values as PostgreSQL's numeric(5,2) returns them, so every answer has the same text. */
const decimal = (value: number) => value.toFixed(2);

const ordered = { orderBy: { priority: 'asc', createdAt: 'asc' } } as const;

/**
 * Removes one image of a locked vehicle (a removed hero passes the role to the next image), its
 * objects through the outbox; journaled as an erasure. False when the vehicle has no such image.
 */
async function removeMediaLocked(em: EntityManager, vehicle: Vehicle, mediaId: string): Promise<boolean> {
  const media = await em.find(Media, { vehicle: vehicle.id }, ordered);
  const target = media.find((item) => item.id === mediaId);
  if (!target) return false;
  if (target.isHero) {
    const next = media.find((item) => item !== target && item.approvalStatus !== 'rejected');
    if (next) next.isHero = true;
  }
  enqueue(em, 'storage.delete', { keys: mediaObjectKeys(target) });
  enqueuePrintPhoto(em, vehicle);
  em.remove(target);
  await refreshPublicVehicles(em, [vehicle.id]);
  journalErasure(em, { kind: 'photo', subject: mediaId });
  return true;
}

/** A restore's replay of a photo deleted after its backup; nothing when it is gone already. */
export async function replayPhotoDeletion(em: EntityManager, mediaId: string): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const target = await tx.findOne(Media, { id: mediaId }, { fields: ['vehicle'] });
    if (!target) return false;
    const vehicle = await tx.findOneOrFail(Vehicle, target.vehicle.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
    });
    return removeMediaLocked(tx, vehicle, mediaId);
  });
}

/** Attaching, arranging and removing a vehicle's images. */
export class MediaService {
  constructor(private readonly deps: MediaServiceDeps) {}

  /**
   * Attaches an uploaded object: it must be an upload the server signed for the caller (reviewers
   * and admins excepted), exist, be an image of at most 10 MB, and not be attached yet; a vehicle
   * holds at most 10 images. The first image becomes the hero. The media's url names its clean
   * full-size rendition, which the worker writes (with the smaller ones) before it deletes the upload.
   */
  async attach(user: User, vehicleId: string, input: MediaCreate): Promise<Media> {
    // Someone else's vehicle answers 404 before anything about the object is revealed.
    const target = await this.deps.em.findOne(Vehicle, { id: vehicleId });
    if (!target) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    authorize(user, 'update', target);
    await this.assertOpen(this.deps.em, user, target);
    await assertVehicleUnlocked(this.deps.em, target.id);
    const key = keyOf(input.url);
    const upload = key ? await this.deps.em.findOne(Upload, { key }) : null;
    if (!key || !upload) throw invalid(VEHICLE_MESSAGES.objectForeign);
    if (!isStaffRole(user.role) && upload.user.id !== user.id)
      throw forbidden(VEHICLE_MESSAGES.objectForeign);
    const head = await this.head(key);
    if (!head) throw invalid(VEHICLE_MESSAGES.objectMissing);
    if ((head.ContentLength ?? 0) > MAX_IMAGE_BYTES) throw invalid(VEHICLE_MESSAGES.objectTooLarge);
    const contentType = head.ContentType?.toLowerCase() ?? '';
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(contentType)) {
      throw invalid(VEHICLE_MESSAGES.objectNotImage);
    }

    const media = await this.deps.em
      .transactional(async (em) => {
        const vehicle = await this.lockVehicle(em, user, vehicleId);
        // Single use, told by the upload record (locked, so two attaches wait for each other): a
        // media row forgets the key once the worker cleaned the image, the record does not.
        const claimed = await em.findOneOrFail(Upload, { key }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (claimed.attachedAt) throw conflict(VEHICLE_MESSAGES.objectAlreadyAttached);
        claimed.attachedAt = new Date();
        const all = await em.find(Media, { vehicle: vehicle.id }, ordered);
        // Images the worker refused hold no place.
        const existing = all.filter((item) => item.approvalStatus !== 'rejected');
        if (existing.length >= MAX_IMAGES_PER_VEHICLE) throw invalid(VEHICLE_MESSAGES.tooManyImages);
        const hasHero = existing.some((item) => item.isHero);
        const isHero = input.isHero ?? !hasHero;
        if (isHero) for (const item of existing) item.isHero = false;
        const id = randomUUID();
        const media = em.create(Media, {
          id,
          vehicle,
          type: input.type,
          url: objectPathOf(fullKey(id, fullFormatOf(contentType))),
          uploadKey: key,
          isHero,
          priority: (all.at(-1)?.priority ?? -1) + 1,
          fileSize: head.ContentLength ?? null,
          cropX: decimal(input.cropX ?? CROP_DEFAULTS.cropX),
          cropY: decimal(input.cropY ?? CROP_DEFAULTS.cropY),
          scale: decimal(input.scale ?? CROP_DEFAULTS.scale),
        });
        await em.flush();
        enqueue(em, 'media.thumbnail', { mediaId: media.id });
        // A new hero takes the role from the card's image; its own print photo follows its renditions.
        if (isHero) enqueuePrintPhoto(em, vehicle);
        await refreshPublicVehicles(em, [vehicle.id]);
        return media;
      })
      .catch((error: unknown) => {
        // Two attaches of one object at once: the unique index decides.
        if (error instanceof UniqueConstraintViolationException) {
          throw conflict(VEHICLE_MESSAGES.objectAlreadyAttached);
        }
        throw error;
      });
    this.deps.onOutbox?.();
    return media;
  }

  /** Hero choice and crop per image; choosing a hero unsets the others. Returns the vehicle's media. */
  async update(user: User, vehicleId: string, input: MediaUpdate): Promise<Media[]> {
    const media = await this.deps.em.transactional(async (em) => {
      const vehicle = await this.lockVehicle(em, user, vehicleId);
      const media = await em.find(Media, { vehicle: vehicle.id }, ordered);
      const byId = new Map(media.map((item) => [item.id, item]));
      for (const update of input.updates) {
        if (!byId.has(update.id)) throw notFound(VEHICLE_MESSAGES.mediaNotFound);
      }
      for (const update of input.updates) {
        const item = byId.get(update.id)!;
        if (update.isHero === true) for (const other of media) other.isHero = other === item;
        else if (update.isHero === false) item.isHero = false;
        if (update.cropX !== undefined) item.cropX = decimal(update.cropX);
        if (update.cropY !== undefined) item.cropY = decimal(update.cropY);
        if (update.scale !== undefined) item.scale = decimal(update.scale);
      }
      // The card's print photo follows its hero, crop and zoom.
      enqueuePrintPhoto(em, vehicle);
      await refreshPublicVehicles(em, [vehicle.id]);
      return media;
    });
    this.deps.onOutbox?.();
    return media;
  }

  /** Removes an image; a removed hero passes the role to the next image. Objects go via the outbox. */
  async remove(user: User, vehicleId: string, mediaId: string): Promise<void> {
    await this.deps.em.transactional(async (em) => {
      const vehicle = await this.lockVehicle(em, user, vehicleId);
      if (!(await removeMediaLocked(em, vehicle, mediaId))) throw notFound(VEHICLE_MESSAGES.mediaNotFound);
    });
    this.deps.onOutbox?.();
  }

  private async lockVehicle(em: EntityManager, user: User, vehicleId: string): Promise<Vehicle> {
    const vehicle = await em.findOne(Vehicle, { id: vehicleId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    authorize(user, 'update', vehicle);
    await this.assertOpen(em, user, vehicle);
    // The quartett card shows the hero photo and its crop: a released set locks them.
    await assertVehicleUnlocked(em, vehicle.id);
    return vehicle;
  }

  /** An edition that is over keeps its photos as they were (409). */
  private assertOpen(em: EntityManager, user: User, vehicle: Vehicle): Promise<void> {
    const at = this.deps.now?.() ?? new Date();
    return assertEditionOpenForChanges(
      em,
      vehicle.edition.id,
      at,
      isOwner(user, vehicle) ? 'owner' : 'staff',
    );
  }

  private async head(key: string) {
    try {
      return await this.deps.s3.send(new HeadObjectCommand({ Bucket: this.deps.bucket, Key: key }));
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  }
}

/** An item of the media archive: what its entry's name and date are made of. */
export interface ArchiveItem {
  id: string;
  url: string;
  createdAt: Date;
  vehicle: { name: string | null; brand: string; model: string };
  /** Where the next page continues: created_at in microseconds (exact, unlike a Date). */
  cursor: string;
}

/**
 * A page of the media library's clean copies for the archive, newest first, after `cursor` (the
 * last item's): refused images and images still being cleaned have none. Paging by (created_at,
 * id), so the archive holds one page however large the library is.
 */
export async function archiveItems(
  em: EntityManager,
  editionId: string,
  limit: number,
  after?: Pick<ArchiveItem, 'cursor' | 'id'>,
): Promise<ArchiveItem[]> {
  const rows = await archiveRows(em, editionId, limit, after);
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    createdAt: new Date(row.created_at),
    vehicle: { name: row.name, brand: row.brand, model: row.model },
    cursor: row.at_micros,
  }));
}

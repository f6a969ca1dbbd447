/**
 * Applying again with last year's car: a new application in the current edition with the car's data
 * and photos carried over (the same car id), as a draft without consents: its submission asks for
 * them with the current wording, as every submission does. The earlier application stays as it was
 * recorded: its data, photos, status log, quartett card and look back are its own.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { brandAndModel, EDITION_MESSAGES, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import { assertVehicleRoom } from '../accounts/account-limits.js';
import type { EditionRef } from '../editions/edition-events.js';
import { conflict, notFound } from '../errors.js';
import { Media } from '../model/media.entity.js';
import type { User } from '../model/user.entity.js';
import { vehicleData } from '../model/vehicle-data.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import {
  contentTypeOf,
  fullKey,
  keyOf,
  newUploadKey,
  objectPathOf,
  type FullFormat,
} from '../storage/objects.js';
import { recordStatusChange, userActor } from '../status-log/status-log.js';

/** The clean photos of an application, in their order: what carries over. */
const carriedPhotos = (vehicle: Vehicle) =>
  vehicle.media
    .getItems()
    .filter((item) => item.type === 'image' && item.approvalStatus !== 'rejected' && !item.uploadKey);

/**
 * The owner's application of `sourceId`'s car for `edition`, as a draft, in the caller's transaction.
 * Refused when the car has an application in that edition already, or the account has no room.
 */
export async function reapplyLocked(
  em: EntityManager,
  owner: User,
  sourceId: string,
  edition: EditionRef,
): Promise<Vehicle> {
  const source = await em.findOne(
    Vehicle,
    { id: sourceId, user: owner.id },
    { populate: ['media', 'edition'] },
  );
  if (!source) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
  if (
    source.edition.id === edition.id ||
    (await em.count(Vehicle, { carId: source.carId, edition: edition.id })) > 0
  ) {
    throw conflict(EDITION_MESSAGES.alreadyApplied(edition.name));
  }
  await assertVehicleRoom(em, owner.id, edition.id);
  const data = vehicleData(source);
  const vehicle = em.create(Vehicle, {
    ...data,
    zeroToHundredS: data.zeroToHundredS,
    id: randomUUID(),
    user: owner,
    edition: edition.id,
    carId: source.carId,
    title: brandAndModel(data),
    status: 'draft',
  });
  recordStatusChange(
    em,
    vehicle,
    userActor(owner),
    { to: 'draft', comment: EDITION_MESSAGES.carriedOver(source.edition.name) },
    null,
  );
  for (const photo of carriedPhotos(source)) {
    const from = keyOf(photo.url);
    if (!from) continue;
    const format = (from.split('.').pop() ?? 'jpg') as FullFormat;
    const id = randomUUID();
    em.create(Media, {
      id,
      vehicle,
      type: 'image',
      url: objectPathOf(fullKey(id, format)),
      // The copy arrives as an upload; the thumbnail job cleans and renders it like any other.
      uploadKey: newUploadKey(owner.id, contentTypeOf(format)),
      altText: photo.altText ?? null,
      isHero: photo.isHero,
      priority: photo.priority,
      cropX: photo.cropX,
      cropY: photo.cropY,
      scale: photo.scale,
      approvalStatus: 'auto',
      copiedFrom: photo.id,
    });
    enqueue(em, 'media.copy', { mediaId: id, from });
  }
  return vehicle;
}

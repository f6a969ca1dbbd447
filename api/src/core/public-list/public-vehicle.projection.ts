import type { EntityManager } from '@mikro-orm/postgresql';
import type { Media } from '../model/media.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { PublicVehicle, type PublicVehicleData } from '../model/public-vehicle.entity.js';
import { lockListingStates } from './public-list.queries.js';
import { markPublicListChanged } from './public-inputs.js';
import { enqueue } from '../outbox/outbox.js';
import { sharePrefix } from '../storage/objects.js';
import { enqueueShareImage, sharedInputsOf } from './share-image.js';

/** An image is public once its clean renditions exist (its upload is gone) and it was not refused. */
const isPublicImage = (item: Media) =>
  item.type === 'image' &&
  item.approvalStatus !== 'rejected' &&
  !item.uploadKey &&
  Boolean(item.thumbnailUrl);

/** Only what the landing page and the carousel show: no owner data, plate or VIN. */
export function toPublicData(vehicle: Vehicle): PublicVehicleData {
  const media = vehicle.media
    .getItems()
    .filter(isPublicImage)
    .map((item) => ({
      type: item.type,
      url: item.url,
      thumbnailUrl: item.thumbnailUrl ?? null,
      isHero: item.isHero,
      cropX: item.cropX,
      cropY: item.cropY,
      scale: item.scale,
    }));
  return {
    id: vehicle.id,
    name: vehicle.name ?? null,
    brand: vehicle.brand,
    model: vehicle.model,
    year: vehicle.year,
    color: vehicle.color ?? null,
    ps: vehicle.ps,
    torqueNm: vehicle.torqueNm ?? null,
    topSpeedKmh: vehicle.topSpeedKmh,
    zeroToHundredS: Number(vehicle.zeroToHundredS),
    cylinders: vehicle.cylinders ?? null,
    weightKg: vehicle.weightKg,
    driveType: vehicle.driveType ?? null,
    tuningCategories: vehicle.tuningCategories,
    descriptionShort: vehicle.descriptionShort ?? null,
    media,
    hero: media.find((item) => item.isHero) ?? media[0] ?? null,
  };
}

/**
 * Brings the public list's rows of these vehicles up to date inside the caller's transaction:
 * confirmed vehicles get their current data, all others leave the list, as do vehicles whose owner
 * withdrew the consent to publish their images. Call it, then flush, after every status change,
 * edit, media change or consent withdrawal.
 */
export async function refreshPublicVehicles(em: EntityManager, vehicleIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(vehicleIds)].sort();
  if (!ids.length) return;
  await em.flush();
  // Serialise refreshes of a vehicle: two jobs changing two of its images at once must not each
  // write a row that misses the other's change. Callers that lock the vehicle first never deadlock.
  // The same statement reads what decides each vehicle's place on the list, so a vehicle that is
  // neither listed nor to be listed (an application) costs nothing more.
  const states = await lockListingStates(em, ids);
  const listable = states.filter((state) => state.listable).map((state) => state.id);
  const gone = states.filter((state) => !state.listable && state.listed).map((state) => state.id);
  if (gone.length || listable.length) markPublicListChanged(em);
  if (gone.length) {
    await em.nativeDelete(PublicVehicle, { vehicle: { $in: gone } });
    // Their link previews go with their place on the list.
    enqueue(em, 'storage.delete', { keys: [], prefixes: gone.map(sharePrefix) });
  }
  if (!listable.length) return;
  const vehicles = await em.find(Vehicle, { id: { $in: listable } }, { populate: ['media'], refresh: true });
  const existing = new Map(
    (await em.find(PublicVehicle, { vehicle: { $in: listable } })).map((row) => [row.vehicle.id, row]),
  );
  const now = new Date();
  for (const vehicle of vehicles) {
    const data = toPublicData(vehicle);
    const row = existing.get(vehicle.id);
    // The link preview is drawn again when what it shows changed (or none was made yet).
    if (!row?.shareImage || sharedInputsOf(row.data) !== sharedInputsOf(data))
      enqueueShareImage(em, vehicle.id);
    if (row) em.assign(row, { data, updatedAt: now });
    else
      em.create(PublicVehicle, {
        vehicle,
        editionId: vehicle.edition.id,
        data,
        listedAt: now,
        updatedAt: now,
      });
  }
}

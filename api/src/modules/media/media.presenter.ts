import { THUMBNAIL_WIDTHS, thumbnailKey } from '@schlosstreffen/shared';
import { objectPathOf } from '../uploads/object-keys.js';
import { presentOwner } from '../users/user.presenter.js';
import type { Media } from './media.entity.js';

/** A media item as owners and staff see it; crop values travel as text (spec section 3). */
export function presentMedia(media: Media) {
  const ready = Boolean(media.thumbnailUrl);
  return {
    id: media.id,
    vehicleId: media.vehicle.id,
    type: media.type,
    url: media.url,
    thumbnailUrl: media.thumbnailUrl ?? null,
    /** Every WebP rendition by width, once the worker has written them. */
    thumbnails: ready
      ? Object.fromEntries(
          THUMBNAIL_WIDTHS.map((width) => [width, objectPathOf(thumbnailKey(media.id, width))]),
        )
      : null,
    altText: media.altText ?? null,
    isHero: media.isHero,
    priority: media.priority,
    width: media.width ?? null,
    height: media.height ?? null,
    fileSize: media.fileSize ?? null,
    cropX: media.cropX,
    cropY: media.cropY,
    scale: media.scale,
    approvalStatus: media.approvalStatus,
    rejectionReason: media.rejectionReason ?? null,
    createdAt: media.createdAt,
  };
}

export type PresentedMedia = ReturnType<typeof presentMedia>;

/** An item of the staff media library: the image with its vehicle and the vehicle's owner. */
export function presentLibraryItem(media: Media) {
  const vehicle = media.vehicle;
  return {
    ...presentMedia(media),
    vehicle: {
      id: vehicle.id,
      name: vehicle.name ?? null,
      brand: vehicle.brand,
      model: vehicle.model,
      year: vehicle.year,
      status: vehicle.status,
    },
    user: presentOwner(vehicle.user),
  };
}

import { THUMBNAIL_WIDTHS } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import { objectPathOf, renditionKey } from '../../core/storage/objects.js';
import { presentOwner } from '../auth/user.presenter.js';
import type { Media } from '../../core/model/media.entity.js';

/** A media item as owners and staff see it; crop values travel as decimal text ("50.00"). */
export function presentMedia(media: Media): Api.Media {
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
          THUMBNAIL_WIDTHS.map((width) => [width, objectPathOf(renditionKey(media.id, width))]),
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
    createdAt: media.createdAt.toISOString(),
  };
}

/** An item of the staff media library: the image with its vehicle and the vehicle's owner. */
export function presentLibraryItem(media: Media): Api.MediaLibraryItem {
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

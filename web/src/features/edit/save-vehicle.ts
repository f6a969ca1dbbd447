import { api } from '../../lib/api';
import type { Media, Vehicle } from '@schlosstreffen/shared/api';
import { imagesOf, mediaUpdates, type EditImage } from './edit-images';

interface SaveVehicleInput {
  vehicle: Vehicle;
  /** PATCH body: the changed fields. */
  body: Record<string, unknown>;
  /** Queued removals (media ids). */
  removed: readonly string[];
  /** The editor's final list (kept and new images). */
  images: readonly EditImage[];
  /** Called for each new upload once it is attached (upload id). */
  onAttached?: (uploadId: string) => void;
}

/**
 * Saves /edit/{id} in this order: PATCH the vehicle; DELETE each queued removal;
 * POST each new image with only type, url and isHero; then one PATCH …/media with changed framing
 * and main-image flags. Throws on the first failure (what went out before stays saved).
 */
export async function saveVehicle({ vehicle, body, removed, images, onAttached }: SaveVehicleInput) {
  const base = `/api/vehicles/${encodeURIComponent(vehicle.id)}`;
  await api.patch<Vehicle>(base, body);

  const stored = new Set(imagesOf(vehicle.media).map((item) => item.id));
  const removals = removed.filter((id) => stored.has(id));
  for (const mediaId of removals) {
    await api.delete(`${base}/media/${encodeURIComponent(mediaId)}`);
  }

  const attached = new Map<string, string>();
  for (const image of images) {
    if (image.kind !== 'new' || !image.objectPath) continue;
    const media = await api.post<Media>(`${base}/media`, {
      type: 'image',
      url: image.objectPath,
      isHero: image.isHero,
    });
    attached.set(image.id, media.id);
    onAttached?.(image.id);
  }

  const updates = mediaUpdates(images, vehicle.media, attached, removals.length > 0);
  if (updates.length > 0) await api.patch<Media[]>(`${base}/media`, { updates });
}

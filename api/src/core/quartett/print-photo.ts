import type { EntityManager } from '@mikro-orm/postgresql';
import { Media } from '../media/media.entity.js';
import { cardMediaOf, cardPhotoOf, type CardPhoto } from './export.js';

/** What the print photo job has to do for a vehicle. */
export interface PrintPhotoTask {
  /** The card's image and crop as of now; none when the vehicle (still) has no usable image. */
  photo?: CardPhoto;
  /** The vehicle's other images: a print photo they still have is no longer used. */
  others: string[];
}

export async function printPhotoTask(em: EntityManager, vehicleId: string): Promise<PrintPhotoTask> {
  const media = await em
    .fork()
    .find(Media, { vehicle: vehicleId }, { orderBy: { priority: 'asc', createdAt: 'asc' } });
  const card = cardMediaOf(media);
  return {
    ...(card ? { photo: cardPhotoOf(card) } : {}),
    others: media.filter((item) => item !== card).map((item) => item.id),
  };
}

/** Whether the image still exists: a print photo written after it was deleted must be taken back. */
export async function mediaExists(em: EntityManager, mediaId: string): Promise<boolean> {
  return (await em.fork().count(Media, { id: mediaId })) > 0;
}

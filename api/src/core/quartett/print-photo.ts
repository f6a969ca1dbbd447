import type { EntityManager } from '@mikro-orm/postgresql';
import { Media } from '../model/media.entity.js';
import { enqueue } from '../outbox/outbox.js';
import type { Vehicle } from '../model/vehicle.entity.js';
import { cardPhotoOf, type CardPhoto } from './export.js';
import { cardMediaOf, mediaIdsOf } from './quartett.queries.js';

/** What the print photo job has to do for a vehicle. */
export interface PrintPhotoTask {
  /** The card's image and crop as of now; none when the vehicle (still) has no usable image. */
  photo?: CardPhoto;
  /** The vehicle's other images: a print photo they still have is no longer used. */
  others: string[];
}

/** The vehicle's card image by the export's own rule, and its other images. */
export async function printPhotoTask(em: EntityManager, vehicleId: string): Promise<PrintPhotoTask> {
  const fork = em.fork();
  const card = await cardMediaOf(fork, vehicleId);
  const all = await mediaIdsOf(fork, vehicleId);
  return {
    ...(card ? { photo: cardPhotoOf(card) } : {}),
    others: all.filter((id) => id !== card?.id),
  };
}

/** Whether the image still exists: a print photo written after it was deleted must be taken back. */
export async function mediaExists(em: EntityManager, mediaId: string): Promise<boolean> {
  return (await em.fork().count(Media, { id: mediaId })) > 0;
}

/**
 * Queues the vehicle's print photo when its card can be printed: only confirmed vehicles are in a
 * quartett set, so an application's photos get none until it is confirmed (confirming queues it;
 * an export prepares any that is still missing itself). Returns whether a job was queued.
 */
export function enqueuePrintPhoto(em: EntityManager, vehicle: Pick<Vehicle, 'id' | 'status'>): boolean {
  if (vehicle.status !== 'confirmed') return false;
  enqueue(em, 'quartett.print-photo', { vehicleId: vehicle.id });
  return true;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { QUARTETT_MESSAGES } from '@schlosstreffen/shared';
import { conflict } from '../errors.js';
import { QuartettCard } from '../model/quartett-card.entity.js';

/** Whether the vehicle has a card in a released quartett set. */
export async function isVehicleLocked(em: EntityManager, vehicleId: string): Promise<boolean> {
  const count = await em.count(QuartettCard, { vehicle: vehicleId, set: { releasedAt: { $ne: null } } });
  return count > 0;
}

/**
 * 409 when a released quartett set holds the vehicle's card: its printed data (fields, hero photo,
 * crop) must not change any more. Call it after locking the vehicle row, so a concurrent release
 * (which locks the same rows) is seen.
 */
export async function assertVehicleUnlocked(em: EntityManager, vehicleId: string): Promise<void> {
  if (await isVehicleLocked(em, vehicleId)) throw conflict(QUARTETT_MESSAGES.vehicleLocked);
}

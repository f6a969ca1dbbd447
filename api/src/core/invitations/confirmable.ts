import type { EntityManager } from '@mikro-orm/postgresql';
import { INVITATION_MESSAGES } from '@schlosstreffen/shared';
import { conflict } from '../errors.js';
import { Invitation } from '../model/invitation.entity.js';

/**
 * An invited vehicle can be confirmed until its invitation's confirm-by date. A vehicle invited a
 * moment ago whose invitation job has not run yet has no invitation, or still the one it gave up
 * before (the job gives it a new one): nothing speaks against confirming.
 */
export async function assertConfirmable(
  em: EntityManager,
  vehicleId: string,
  now = new Date(),
): Promise<void> {
  const invitation = await em.findOne(Invitation, { vehicle: vehicleId });
  if (!invitation || invitation.releasedAt) return;
  if (invitation.confirmBy && invitation.confirmBy < now)
    throw conflict(INVITATION_MESSAGES.confirmDeadlinePassed);
}

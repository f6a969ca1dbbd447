import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConsentKind } from '@schlosstreffen/shared';
import { Consent } from './consent.entity.js';

/** Whether a consent of this kind for the vehicle was withdrawn (a withdrawal is final). */
export async function consentWithdrawn(
  em: EntityManager,
  vehicleId: string,
  kind: ConsentKind,
): Promise<boolean> {
  return (await em.count(Consent, { vehicle: vehicleId, kind, withdrawnAt: { $ne: null } })) > 0;
}

/** SQL condition: the vehicle `alias` has no withdrawn consent of this kind (for set-based reads). */
export const noWithdrawnConsent = (alias: string, kind: ConsentKind) =>
  `not exists (select 1 from consent c where c.vehicle_id = ${alias}.id and c.kind = '${kind}' and c.withdrawn_at is not null)`;

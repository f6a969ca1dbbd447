import type { EntityManager } from '@mikro-orm/postgresql';
import type { ConsentKind } from '@schlosstreffen/shared';
import { Consent } from './consent.entity.js';

/**
 * Whether the vehicle's consent of this kind is withdrawn: a withdrawal holds until the owner gives
 * that consent again, which only a submission of the application records (then it stands beside the
 * withdrawn one). An application without any consent row (recorded before consents were) is not.
 */
export async function consentWithdrawn(
  em: EntityManager,
  vehicleId: string,
  kind: ConsentKind,
): Promise<boolean> {
  const withdrawn = await em.count(Consent, { vehicle: vehicleId, kind, withdrawnAt: { $ne: null } });
  return withdrawn > 0 && (await em.count(Consent, { vehicle: vehicleId, kind, withdrawnAt: null })) === 0;
}

/** SQL condition: the vehicle `alias`'s consent of this kind is withdrawn (as `consentWithdrawn`). */
export const withdrawnConsent = (alias: string, kind: ConsentKind) =>
  `(exists (select 1 from consent c where c.vehicle_id = ${alias}.id and c.kind = '${kind}' and c.withdrawn_at is not null)
    and not exists (select 1 from consent c where c.vehicle_id = ${alias}.id and c.kind = '${kind}' and c.withdrawn_at is null))`;

/** SQL condition: the vehicle `alias`'s consent of this kind is not withdrawn (for set-based reads). */
export const noWithdrawnConsent = (alias: string, kind: ConsentKind) =>
  `not ${withdrawnConsent(alias, kind)}`;

/** The SQL of the public list: the read model's fingerprint and rows, and what decides a listing. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/db.queries.js';
import { noWithdrawnConsent } from '../model/consent-state.js';

/**
 * Changes whenever a row of the read model does: every write gives a row a new `xmin` (the writing
 * transaction) and `refreshPublicVehicles` a new `updated_at`; inserts and deletes change the set.
 * Freezing may rewrite `xmin`, which only costs one more full read.
 */
const FINGERPRINT = `md5(coalesce(string_agg(vehicle_id::text || ':' || xmin::text || ':' || updated_at::text, ','
                                    order by vehicle_id), ''))`;

/** The fingerprint of the edition's rows of the read model. */
export async function publicListFingerprint(em: EntityManager, editionId: string): Promise<string> {
  const [row] = await em
    .getConnection()
    .execute<{ fingerprint: string }[]>(
      `select ${FINGERPRINT} as fingerprint from public_vehicle where edition_id = ?`,
      [editionId],
    );
  return row!.fingerprint;
}

/**
 * The edition's rows of the read model in listing order and their fingerprint, in one statement (one
 * snapshot).
 */
export async function publicListRows(
  em: EntityManager,
  editionId: string,
): Promise<{ fingerprint: string; list: unknown[] }> {
  const [row] = await em.getConnection().execute<{ fingerprint: string; list: unknown[] }[]>(
    `select ${FINGERPRINT} as fingerprint,
              coalesce(json_agg(data order by listed_at, vehicle_id), '[]'::json) as list
         from public_vehicle where edition_id = ?`,
    [editionId],
  );
  return row!;
}

export interface ListingState {
  id: string;
  /** Confirmed, and the owner did not withdraw the consent to publish images. */
  listable: boolean;
  listed: boolean;
}

/**
 * Whether each vehicle belongs on the list and whether it is on it, the vehicles locked for the
 * caller's transaction (in id order).
 */
export function lockListingStates(em: EntityManager, ids: string[]): Promise<ListingState[]> {
  return selectRows<ListingState>(
    em,
    `select v.id,
            v.status = 'confirmed' and ${noWithdrawnConsent('v', 'media')} as listable,
            exists (select 1 from public_vehicle p where p.vehicle_id = v.id) as listed
       from vehicle v
      where v.id in (${ids.map(() => '?').join(', ')})
      order by v.id
        for update of v`,
    ids,
  );
}

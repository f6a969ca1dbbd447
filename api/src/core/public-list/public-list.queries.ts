/** The SQL of the public list: the read model's fingerprint and rows, and what decides a listing. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/db.queries.js';
import { noWithdrawnConsent } from '../model/consent-state.js';
import { feeSettledSql, vehicleFeeSettledSql } from '../fees/participation.js';

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
            v.status = 'confirmed' and ${vehicleFeeSettledSql('v')} and ${noWithdrawnConsent('v', 'media')} as listable,
            exists (select 1 from public_vehicle p where p.vehicle_id = v.id) as listed
       from vehicle v
      where v.id in (${ids.map(() => '?').join(', ')})
      order by v.id
        for update of v`,
    ids,
  );
}

export interface CarPageRow {
  year: number;
  name: string;
  starts_at: Date;
  ends_at: Date;
  place: string;
  start_number: number;
  vehicle_id: string;
  brand: string;
  model: string;
  /** The listed car (public_vehicle), null without the media consent. */
  data: unknown;
  story: string | null;
  instagram_handle: string | null;
  share_image: string | null;
  /** The edition's award row (all null without one). */
  award_opens_at: Date | string | null;
  award_closes_at: Date | string | null;
  award_opened_at: Date | string | null;
  award_closed_at: Date | string | null;
}

/**
 * The confirmed car holding `startNumber` in the edition of `year` (a released place holds none),
 * with its list row and what its page adds (the edition's voting among it); the Instagram name only
 * while its consent stands.
 */
export async function carPageRow(
  em: EntityManager,
  year: number,
  startNumber: number,
): Promise<CarPageRow | undefined> {
  const [row] = await selectRows<CarPageRow>(
    em,
    `select e.year, e.name, e.starts_at, e.ends_at, e.place, i.start_number, v.id as vehicle_id, v.brand,
            v.model, p.data, p.share_image,
            a.opens_at as award_opens_at, a.closes_at as award_closes_at,
            a.opened_at as award_opened_at, a.closed_at as award_closed_at,
            case when p.vehicle_id is null then null else v.description_long end as story,
            case when p.vehicle_id is not null
                  and exists (select 1 from consent c
                               where c.vehicle_id = v.id and c.kind = 'instagram' and c.withdrawn_at is null)
                 then nullif(btrim(u.instagram_handle), '') end as instagram_handle
       from invitation i
       join edition e on e.id = i.edition_id
       join vehicle v on v.id = i.vehicle_id
       join users u on u.id = v.user_id
       left join public_vehicle p on p.vehicle_id = v.id
       left join award a on a.edition_id = e.id
      where e.year = ? and i.start_number = ? and i.released_at is null and v.status = 'confirmed'
        and ${feeSettledSql('i')}`,
    [year, startNumber],
  );
  return row;
}

/** A listed car's row with its meeting and start number, for its link preview; undefined when not listed. */
export async function carShareRow(
  em: EntityManager,
  vehicleId: string,
): Promise<
  { data: unknown; share_image: string | null; year: number; name: string; start_number: number } | undefined
> {
  const [row] = await selectRows<{
    data: unknown;
    share_image: string | null;
    year: number;
    name: string;
    start_number: number;
  }>(
    em,
    `select p.data, p.share_image, e.year, e.name, i.start_number
       from public_vehicle p
       join invitation i on i.vehicle_id = p.vehicle_id and i.released_at is null
       join edition e on e.id = i.edition_id
      where p.vehicle_id = ?`,
    [vehicleId],
  );
  return row;
}

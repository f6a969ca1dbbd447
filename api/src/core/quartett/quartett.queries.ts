/** The SQL of the quartett: each card's image, the cards' data in one read, and writing the cards. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { noWithdrawnConsent } from '../model/consent-state.js';
import { selectRows } from '../db/db.queries.js';
import { vehicleFeeSettledSql } from '../fees/participation.js';

/**
 * The image a vehicle's card shows, as a lateral subquery on `v` (a vehicle): the hero, else the
 * first clean image in the owner's order; refused images and images not cleaned yet never.
 */
const CARD_MEDIA_SQL = `select m.id, m.url, m.crop_x, m.crop_y, m.scale from media m
  where m.vehicle_id = v.id and m.type = 'image' and m.approval_status <> 'rejected' and m.upload_key is null
  order by m.is_hero desc, m.priority asc, m.created_at asc limit 1`;

/** The card image of a vehicle (numeric columns come as text). */
export interface CardMediaRow {
  id: string;
  url: string;
  crop_x: string | number;
  crop_y: string | number;
  scale: string | number;
}

/** The vehicle's card image, if it has one. */
export async function cardMediaOf(em: EntityManager, vehicleId: string): Promise<CardMediaRow | undefined> {
  const [card] = await em
    .getConnection()
    .execute<CardMediaRow[]>(`select h.* from (select ?::uuid as id) v, lateral (${CARD_MEDIA_SQL}) h`, [
      vehicleId,
    ]);
  return card;
}

/** The id of the vehicle's card image, in the caller's transaction. */
export async function cardMediaIdOf(tx: EntityManager, vehicleId: string): Promise<string | undefined> {
  const [card] = await selectRows<{ id: string }>(
    tx,
    `select h.id from (select ?::uuid as id) v, lateral (${CARD_MEDIA_SQL}) h`,
    [vehicleId],
  );
  return card?.id;
}

/** The ids of all the vehicle's media. */
export async function mediaIdsOf(em: EntityManager, vehicleId: string): Promise<string[]> {
  const rows = await em
    .getConnection()
    .execute<{ id: string }[]>('select id from media where vehicle_id = ?', [vehicleId]);
  return rows.map((row) => row.id);
}

/** Locks the vehicles of a set's cards for the caller's transaction (in id order). */
export async function lockSetVehicles(em: EntityManager, setId: string): Promise<void> {
  await selectRows(
    em,
    'select v.id from vehicle v join quartett_card c on c.vehicle_id = v.id where c.set_id = ? order by v.id for update of v',
    [setId],
  );
}

/** Everything a card shows of a vehicle, its owner and its card image, in one row. */
export interface CardRow {
  vehicle_id: string;
  name: string | null;
  brand: string;
  model: string;
  year: number | null;
  color: string | null;
  ps: number | null;
  torque_nm: number | null;
  zero_to_hundred_s: string | null;
  top_speed_kmh: number | null;
  cylinders: number | null;
  weight_kg: number | null;
  first_name: string | null;
  last_name: string | null;
  media_id: string | null;
  media_url: string | null;
  crop_x: string | null;
  crop_y: string | null;
  scale: string | null;
}

/**
 * Every card's data of an edition's set in the caller's transaction: its confirmed vehicles by start number, then
 * registration; none whose owner withdrew the quartett consent. Plain rows: entities for a thousand
 * vehicles with their owners and images would take long, blocking stretches and much memory.
 */
export function cardRows(tx: EntityManager, editionId: string): Promise<CardRow[]> {
  return tx.execute<CardRow[]>(
    `select v.id as vehicle_id, v.name, v.brand, v.model, v.year, v.color, v.ps, v.torque_nm,
              v.zero_to_hundred_s, v.top_speed_kmh, v.cylinders, v.weight_kg, u.first_name, u.last_name,
              h.id as media_id, h.url as media_url, h.crop_x, h.crop_y, h.scale
       from vehicle v
       join users u on u.id = v.user_id
       left join invitation i on i.vehicle_id = v.id
       left join lateral (${CARD_MEDIA_SQL}) h on true
       where v.edition_id = ? and v.status = 'confirmed' and ${vehicleFeeSettledSql('v')}
         and ${noWithdrawnConsent('v', 'quartett')}
       order by i.start_number asc nulls last, v.created_at asc, v.id asc`,
    [editionId],
  );
}

/** Writes a set's cards in the given order, in the caller's transaction. */
export async function insertCards(
  tx: EntityManager,
  setId: string,
  vehicleIds: string[],
  codes: string[],
): Promise<void> {
  await tx.execute(
    `insert into quartett_card (id, set_id, vehicle_id, position, code)
       select gen_random_uuid(), ?, vehicle, position - 1, code
       from unnest(?::uuid[], ?::text[]) with ordinality as card(vehicle, code, position)`,
    // Array literals: uuids and codes hold no character that needs quoting.
    [setId, `{${vehicleIds.join(',')}}`, `{${codes.join(',')}}`],
  );
}

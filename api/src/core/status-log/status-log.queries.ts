/** The SQL of the status log: a vehicle's history with names, and the replay of the whole log. */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { VehicleStatus } from '@schlosstreffen/shared';
import { withdrawnConsent } from '../model/consent-state.js';

/** A vehicle's log rows, newest first, each with the actor's current name (null once gone). */
export function historyRows(em: EntityManager, vehicleId: string): Promise<Record<string, unknown>[]> {
  return em.getConnection().execute<Record<string, unknown>[]>(
    `select r.id, r.vehicle_id, r.reviewer_id, r.actor_role, r.kind, r.old_status, r.new_status,
            r.comment_internal, r.score, r.created_at,
            coalesce(r.actor_name, nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) as actor_name
       from review r left join users u on u.id = r.reviewer_id
      where r.vehicle_id = ? order by r.seq desc`,
    [vehicleId],
  );
}

/** Per vehicle with events: the last event's new status and the number of its events. */
export function lastStatuses(
  em: EntityManager,
): Promise<{ vehicle_id: string; new_status: VehicleStatus; n: string }[]> {
  return em.getConnection().execute<{ vehicle_id: string; new_status: VehicleStatus; n: string }[]>(
    `select distinct on (vehicle_id) vehicle_id, new_status, count(*) over (partition by vehicle_id) as n
       from review order by vehicle_id, seq desc`,
  );
}

/** Every vehicle's stored status and its edition's year, oldest first. */
export function storedStatuses(
  em: EntityManager,
): Promise<{ id: string; title: string; status: VehicleStatus; year: number }[]> {
  return em.getConnection().execute<{ id: string; title: string; status: VehicleStatus; year: number }[]>(
    `select v.id, v.title, v.status, e.year from vehicle v join edition e on e.id = v.edition_id
        order by v.created_at`,
  );
}

/** Rows of the public list whose edition is not their vehicle's. */
export async function listedInOtherEdition(em: EntityManager): Promise<number> {
  const [row] = await em.getConnection().execute<{ n: number }[]>(
    `select count(*)::int as n from public_vehicle p join vehicle v on v.id = p.vehicle_id
        where p.edition_id <> v.edition_id`,
  );
  return row!.n;
}

/** Vehicles whose owner withdrew the consent to publish their images (and did not give it again). */
export async function mediaConsentWithdrawn(em: EntityManager): Promise<string[]> {
  const rows = await em
    .getConnection()
    .execute<{ id: string }[]>(`select v.id from vehicle v where ${withdrawnConsent('v', 'media')}`);
  return rows.map((row) => row.id);
}

/** The vehicles on the public list. */
export async function listedVehicleIds(em: EntityManager): Promise<string[]> {
  const rows = await em
    .getConnection()
    .execute<{ vehicle_id: string }[]>(`select vehicle_id from public_vehicle`);
  return rows.map((row) => row.vehicle_id);
}

import type { PublicVehicle } from '@schlosstreffen/shared/api';
/** The SQL of editions: applications counted per edition, an edition's public cars and arrivals. */
import type { EntityManager } from '@mikro-orm/postgresql';

/** Applications per edition id (editions without any are left out). */
export async function applicationsPerEdition(em: EntityManager): Promise<Map<string, number>> {
  const rows = await em
    .getConnection()
    .execute<Array<{ edition_id: string; n: number }>>(
      `select edition_id, count(*)::int as n from vehicle group by edition_id`,
    );
  return new Map(rows.map((row) => [row.edition_id, row.n]));
}

/** The edition's rows of the public list, in listing order. */
export async function listedOf(em: EntityManager, editionId: string): Promise<PublicVehicle[]> {
  const [row] = await em.getConnection().execute<Array<{ list: PublicVehicle[] }>>(
    `select coalesce(json_agg(data order by listed_at, vehicle_id), '[]'::json) as list
         from public_vehicle where edition_id = ?`,
    [editionId],
  );
  return row!.list;
}

/** The start numbers of the edition's listed cars by their ids (the addresses of their pages). */
export async function listedStartNumbersOf(
  em: EntityManager,
  editionId: string,
): Promise<Record<string, number>> {
  const rows = await em.getConnection().execute<Array<{ vehicle_id: string; start_number: number }>>(
    `select p.vehicle_id, i.start_number
       from public_vehicle p join invitation i on i.vehicle_id = p.vehicle_id and i.released_at is null
      where p.edition_id = ?`,
    [editionId],
  );
  return Object.fromEntries(rows.map((row) => [row.vehicle_id, row.start_number]));
}

/** The edition's cars let in at the gate. */
export async function checkedInOf(em: EntityManager, editionId: string): Promise<number> {
  const [row] = await em
    .getConnection()
    .execute<Array<{ n: number }>>(
      `select count(*)::int as n from invitation where edition_id = ? and checked_in_at is not null`,
      [editionId],
    );
  return row!.n;
}

/**
 * Visitors let in at the gate (each ticket's first entry, and walk-ins), from the kept scans, which
 * outlive the tickets and their holders; null where none were counted.
 */
export async function visitorsAdmittedOf(em: EntityManager, editionId: string): Promise<number | null> {
  const [row] = await em.getConnection().execute<Array<{ n: number; scans: number }>>(
    `select count(*) filter (where result = 'admitted')::int as n, count(*)::int as scans
         from visitor_ticket_scan where edition_id = ?`,
    [editionId],
  );
  return row!.scans > 0 ? row!.n : null;
}

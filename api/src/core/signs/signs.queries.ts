/** The SQL of the windshield signs: which cars get one, and what their signs show. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from '../db/db.queries.js';
import { feeSettledSql } from '../fees/participation.js';

/** What a sign shows of a car. */
export interface SignRow {
  vehicle_id: string;
  name: string | null;
  brand: string | null;
  model: string | null;
  start_number: number;
  parking_zone: string;
}

/**
 * The edition's confirmed cars holding a start number (a released invitation does not count), by
 * start number; with `vehicleId`, only that car.
 */
export function signRows(em: EntityManager, editionId: string, vehicleId?: string): Promise<SignRow[]> {
  return selectRows<SignRow>(
    em,
    `select v.id as vehicle_id, v.name, v.brand, v.model, i.start_number, i.parking_zone
       from vehicle v join invitation i on i.vehicle_id = v.id and i.edition_id = v.edition_id
      where v.edition_id = ? and v.status = 'confirmed' and i.released_at is null and ${feeSettledSql('i')}
        ${vehicleId ? 'and v.id = ?' : ''}
      order by i.start_number`,
    vehicleId ? [editionId, vehicleId] : [editionId],
  );
}

/**
 * Creates the queued row of an edition's set (no vehicle) or of a car's sign unless it exists; two
 * requests at once both go on to lock the one row. Whether this call created it.
 */
export async function insertSignExport(
  em: EntityManager,
  row: { id: string; editionId: string; format: string; vehicleId: string | null },
): Promise<boolean> {
  const inserted = await runStatement(
    em,
    `insert into sign_export (id, edition_id, format, vehicle_id, status, progress, sign_count, requested_at, created_at)
     values (?, ?, ?, ?, 'queued', 0, 0, now(), now())
     on conflict do nothing`,
    [row.id, row.editionId, row.format, row.vehicleId],
  );
  return inserted > 0;
}

/** The SQL of the windshield signs: which cars get one, and what their signs show. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/db.queries.js';

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
      where v.edition_id = ? and v.status = 'confirmed' and i.released_at is null
        ${vehicleId ? 'and v.id = ?' : ''}
      order by i.start_number`,
    vehicleId ? [editionId, vehicleId] : [editionId],
  );
}

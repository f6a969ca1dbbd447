/** The SQL of media: what a rendition job reads first, the vehicle lock it takes, the archive's pages. */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { VehicleStatus } from '@schlosstreffen/shared';
import { AT_MICROS, MICROS } from '../db/micros.js';
import { selectRows } from '../db/db.queries.js';

export interface MediaStateRow {
  type: string;
  approval_status: string;
  rejection_reason: string | null;
  upload_key: string | null;
  thumbnail_url: string | null;
  url: string;
}

/** What decides a rendition job's task, in one plain statement. */
export async function mediaState(em: EntityManager, mediaId: string): Promise<MediaStateRow | undefined> {
  const [media] = await em
    .getConnection()
    .execute<MediaStateRow[]>(
      `select type, approval_status, rejection_reason, upload_key, thumbnail_url, url from media where id = ?`,
      [mediaId],
    );
  return media;
}

/** The media's vehicle, locked for the transaction. */
export interface LockedVehicle {
  id: string;
  status: VehicleStatus;
}

/** Locks the vehicle of a media row for the caller's transaction (vehicle before media, as the API does). */
export async function lockVehicleOfMedia(
  tx: EntityManager,
  mediaId: string,
): Promise<LockedVehicle | undefined> {
  const [vehicle] = await selectRows<LockedVehicle>(
    tx,
    `select v.id, v.status from vehicle v
        where v.id = (select m.vehicle_id from media m where m.id = ?)
          for update of v`,
    [mediaId],
  );
  return vehicle;
}

export interface ArchiveRow {
  id: string;
  url: string;
  created_at: string | Date;
  at_micros: string;
  name: string | null;
  brand: string;
  model: string;
}

/**
 * The edition's clean copies (not refused, cleaned), newest first, after the row (`cursor` in microseconds, id),
 * with their vehicle's name, brand and model.
 */
export function archiveRows(
  em: EntityManager,
  editionId: string,
  limit: number,
  after?: { cursor: string; id: string },
): Promise<ArchiveRow[]> {
  return em.getConnection().execute<ArchiveRow[]>(
    `select m.id, m.url, m.created_at, ${MICROS('m.created_at')} as at_micros,
            v.name, v.brand, v.model
       from media m join vehicle v on v.id = m.vehicle_id
      where v.edition_id = ? and m.upload_key is null and m.approval_status <> 'rejected'
        ${after ? `and (m.created_at, m.id) < (${AT_MICROS}, ?::uuid)` : ''}
      order by m.created_at desc, m.id desc
      limit ?`,
    [editionId, ...(after ? [after.cursor, after.id] : []), limit],
  );
}

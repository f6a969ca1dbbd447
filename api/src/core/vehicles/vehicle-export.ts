import type { EntityManager } from '@mikro-orm/postgresql';
import type { VehicleStatus } from '@schlosstreffen/shared';
import { LAST_SUBMISSION_JOIN, LATEST_SCORE_JOIN } from '../model/review-facts.js';
import { applicationWhere, type ApplicationFilter } from './admin-list.js';

export type { ApplicationFilter } from './admin-list.js';

export interface ApplicationRow {
  id: string;
  status: VehicleStatus;
  brand: string;
  model: string;
  name: string | null;
  year: number;
  color: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  submittedAt: Date | null;
  /** The latest score a reviewer gave. */
  score: number | null;
  startNumber: number | null;
  parkingZone: string | null;
  confirmBy: Date | null;
  releaseReason: 'lapsed' | 'declined' | 'revoked' | null;
  checkedInAt: Date | null;
  /** The gate whose scan let the car in. */
  checkedInGate: string | null;
}

/** Rows per statement of the export: memory stays flat however many applications there are. */
const EXPORT_BATCH = 500;

/**
 * The applications for the organizers' export, filtered like the admin dashboard (the same
 * condition), newest first (its order), in batches of one keyset query each.
 */
export async function* applicationRows(
  em: EntityManager,
  filter: ApplicationFilter,
): AsyncGenerator<ApplicationRow> {
  let after: { sql: string; params: unknown[] } | undefined;
  for (;;) {
    const where = applicationWhere(filter, after);
    const rows = await em.getConnection().execute<Array<Record<string, unknown>>>(
      `select v.id, v.status, v.brand, v.model, v.name, v.year, v.color,
              u.first_name, u.last_name, u.email, u.phone,
              sub.submitted_at, s.score,
              i.start_number, i.parking_zone, i.confirm_by, i.release_reason, i.checked_in_at,
              cs.gate as checked_in_gate, v.created_at::text as after_created_at
         from (select v.* from vehicle v ${where.sql}
                order by v.created_at desc, v.id desc limit ${EXPORT_BATCH}) v
         join users u on u.id = v.user_id
         left join invitation i on i.vehicle_id = v.id
         left join check_in_scan cs on cs.id = i.checked_in_scan_id
         ${LATEST_SCORE_JOIN}
         ${LAST_SUBMISSION_JOIN}
        order by v.created_at desc, v.id desc`,
      where.params,
    );
    for (const row of rows) yield toRow(row);
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    after = {
      sql: '(v.created_at, v.id) < (?::timestamptz, ?::uuid)',
      params: [last.after_created_at, last.id],
    };
  }
}

function toRow(row: Record<string, unknown>): ApplicationRow {
  const date = (value: unknown) => (value ? new Date(value as string) : null);
  return {
    id: String(row.id),
    status: row.status as VehicleStatus,
    brand: String(row.brand),
    model: String(row.model),
    name: (row.name as string | null) ?? null,
    year: Number(row.year),
    color: (row.color as string | null) ?? null,
    firstName: (row.first_name as string | null) ?? null,
    lastName: (row.last_name as string | null) ?? null,
    email: String(row.email),
    phone: (row.phone as string | null) ?? null,
    submittedAt: date(row.submitted_at),
    score: row.score === null ? null : Number(row.score),
    startNumber: row.start_number === null ? null : Number(row.start_number),
    parkingZone: (row.parking_zone as string | null) ?? null,
    confirmBy: date(row.confirm_by),
    releaseReason: (row.release_reason as ApplicationRow['releaseReason']) ?? null,
    checkedInAt: date(row.checked_in_at),
    checkedInGate: row.checked_in_at ? ((row.checked_in_gate as string | null) ?? 'Einlass') : null,
  };
}

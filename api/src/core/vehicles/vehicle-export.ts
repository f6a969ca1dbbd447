import type { EntityManager } from '@mikro-orm/postgresql';
import { VEHICLE_STATUSES, type VehicleStatus } from '@schlosstreffen/shared';
import { LAST_SUBMISSION_JOIN, LATEST_SCORE_JOIN } from '../status-log/review-facts.js';

/** The dashboard's filter: a status tab ('all' or one status) and the search on brand or model. */
export interface ApplicationFilter {
  status: VehicleStatus | 'all';
  /** Case-insensitive substring of brand or model; empty matches everything. */
  q: string;
}

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

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The applications for the organizers' export, filtered like the admin dashboard, newest first
 * (its order), in one query.
 */
export async function applicationRows(
  em: EntityManager,
  filter: ApplicationFilter,
): Promise<ApplicationRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.status !== 'all' && VEHICLE_STATUSES.includes(filter.status)) {
    where.push('v.status = ?');
    params.push(filter.status);
  }
  const needle = filter.q.trim();
  if (needle) {
    where.push(`(v.brand ilike ? or v.model ilike ?)`);
    const pattern = `%${escapeLike(needle)}%`;
    params.push(pattern, pattern);
  }
  const rows = await em.getConnection().execute<Array<Record<string, unknown>>>(
    `select v.id, v.status, v.brand, v.model, v.name, v.year, v.color,
            u.first_name, u.last_name, u.email, u.phone,
            sub.submitted_at, s.score,
            i.start_number, i.parking_zone, i.confirm_by, i.release_reason, i.checked_in_at,
            cs.gate as checked_in_gate
       from vehicle v
       join users u on u.id = v.user_id
       left join invitation i on i.vehicle_id = v.id
       left join check_in_scan cs on cs.id = i.checked_in_scan_id
       ${LATEST_SCORE_JOIN}
       ${LAST_SUBMISSION_JOIN}
      ${where.length ? `where ${where.join(' and ')}` : ''}
      order by v.created_at desc, v.id`,
    params,
  );
  const date = (value: unknown) => (value ? new Date(value as string) : null);
  return rows.map((row) => ({
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
  }));
}

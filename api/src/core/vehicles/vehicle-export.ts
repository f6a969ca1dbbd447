import type { EntityManager } from '@mikro-orm/postgresql';
import type { VehicleStatus } from '@schlosstreffen/shared';
import type { User } from '../model/user.entity.js';
import { scoresVisibleTo } from '../reviews/reviews.js';
import { applicationBatch, EXPORT_BATCH, type ApplicationFilter } from './vehicles.queries.js';

export type { ApplicationFilter } from './vehicles.queries.js';

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
  /** The application's score; null when none or hidden from the viewer (blind review). */
  score: number | null;
  startNumber: number | null;
  parkingZone: string | null;
  confirmBy: Date | null;
  releaseReason: 'lapsed' | 'declined' | 'revoked' | null;
  checkedInAt: Date | null;
  /** The gate whose scan let the car in. */
  checkedInGate: string | null;
}

/**
 * The applications for the organizers' export, filtered like the admin dashboard (the same
 * condition), newest first (its order), in batches of one keyset query each. A score stays empty
 * where `viewer` may not see it (blind review: a reviewer who has not submitted their own review).
 */
export async function* applicationRows(
  em: EntityManager,
  filter: ApplicationFilter,
  viewer: User,
): AsyncGenerator<ApplicationRow> {
  let after: { createdAt: unknown; id: unknown } | undefined;
  for (;;) {
    const rows = await applicationBatch(em, filter, after);
    const visible = await scoresVisibleTo(
      em,
      viewer,
      rows.map((row) => String(row.id)),
    );
    for (const row of rows) {
      const exported = toRow(row);
      yield visible.has(exported.id) ? exported : { ...exported, score: null };
    }
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    after = { createdAt: last.after_created_at, id: last.id };
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

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Role, StatusHistoryEntry, VehicleStatus } from '@schlosstreffen/shared';
import type { User } from '../users/user.entity.js';
import type { Vehicle } from '../vehicles/vehicle.entity.js';
import { Review } from './review.entity.js';

/** Who caused a status event: a user acting in a role, or the system (e.g. an expired invitation). */
export type Actor = { kind: 'user'; user: User } | { kind: 'system'; name: string };

export const userActor = (user: User): Actor => ({ kind: 'user', user });

export interface StatusEvent {
  to: VehicleStatus;
  comment?: string | null;
  score?: number | null;
}

const actorName = (user: User) => `${user.firstName} ${user.lastName}`.trim() || user.email;

/**
 * Appends one status event and updates the `vehicle.status` projection in the caller's unit of
 * work; the caller's transaction commits both or neither.
 */
export function recordStatusChange(
  em: EntityManager,
  vehicle: Vehicle,
  actor: Actor,
  event: StatusEvent,
  /** null for the event that creates the vehicle. */
  from: VehicleStatus | null = vehicle.status,
): Review {
  const review = em.create(Review, {
    vehicleId: vehicle.id,
    reviewerId: actor.kind === 'user' ? actor.user.id : null,
    actorRole: actor.kind === 'user' ? (actor.user.role as Role) : 'system',
    actorName: actor.kind === 'user' ? actorName(actor.user) : actor.name,
    commentInternal: event.comment ?? null,
    score: event.score ?? null,
    oldStatus: from,
    newStatus: event.to,
  });
  vehicle.status = event.to;
  return review;
}

/** A vehicle's history, newest first (in insertion order, which `seq` records). */
export async function listHistory(em: EntityManager, vehicleId: string): Promise<StatusHistoryEntry[]> {
  const rows = await em.getConnection().execute<Record<string, unknown>[]>(
    `select id, vehicle_id, reviewer_id, actor_name, actor_role, old_status, new_status, comment_internal,
            score, created_at
       from review where vehicle_id = ? order by seq desc`,
    [vehicleId],
  );
  return rows.map((row) => ({
    id: String(row.id),
    vehicleId: String(row.vehicle_id),
    reviewerId: (row.reviewer_id as string | null) ?? null,
    actorName: String(row.actor_name),
    actorRole: String(row.actor_role),
    oldStatus: (row.old_status as VehicleStatus | null) ?? null,
    newStatus: row.new_status as VehicleStatus,
    commentInternal: (row.comment_internal as string | null) ?? null,
    score: (row.score as number | null) ?? null,
    createdAt: new Date(row.created_at as string).toISOString(),
  }));
}

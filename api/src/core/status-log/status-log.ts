import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PRIVACY_MESSAGES,
  type Role,
  type StatusEventKind,
  type StatusHistoryEntry,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type { User } from '../model/user.entity.js';
import type { Vehicle } from '../model/vehicle.entity.js';
import { Review } from '../model/review.entity.js';
import { historyRows } from './status-log.queries.js';

/** Who caused a status event: a user acting in a role, or the system (e.g. an expired invitation). */
export type Actor = { kind: 'user'; user: User } | { kind: 'system'; name: string };

export const userActor = (user: User): Actor => ({ kind: 'user', user });

export interface StatusEvent {
  to: VehicleStatus;
  comment?: string | null;
  score?: number | null;
}

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
    // People are named by id only, so the log holds no names once an account is deleted.
    actorName: actor.kind === 'user' ? null : actor.name,
    commentInternal: event.comment ?? null,
    score: event.score ?? null,
    oldStatus: from,
    newStatus: event.to,
  });
  vehicle.status = event.to;
  return review;
}

/**
 * Appends a consent withdrawal to the vehicle's log: the status stays, the comment says which
 * consent went. Replaying the log still ends at the vehicle's status.
 */
export function recordConsentWithdrawal(
  em: EntityManager,
  vehicle: Vehicle,
  user: User,
  text: string,
): Review {
  return em.create(Review, {
    vehicleId: vehicle.id,
    reviewerId: user.id,
    actorRole: user.role as Role,
    actorName: null,
    kind: 'consent_withdrawn',
    commentInternal: text,
    oldStatus: vehicle.status,
    newStatus: vehicle.status,
  });
}

/**
 * Appends an admin's correction of a past edition's record: the status it corrects to (the same when
 * only the check-in is corrected), the note with the reason. Updates the `vehicle.status` projection.
 */
export function recordCorrection(
  em: EntityManager,
  vehicle: Vehicle,
  admin: User,
  event: { to: VehicleStatus; note: string },
): Review {
  const review = em.create(Review, {
    vehicleId: vehicle.id,
    reviewerId: admin.id,
    actorRole: admin.role as Role,
    actorName: null,
    kind: 'correction',
    commentInternal: event.note,
    oldStatus: vehicle.status,
    newStatus: event.to,
  });
  vehicle.status = event.to;
  return review;
}

/**
 * Appends a submitted review to the vehicle's log: the status stays, the comment holds the scores
 * per category, the score the review's weighted score (rounded; the review keeps it exactly).
 */
export function recordReview(
  em: EntityManager,
  vehicle: Vehicle,
  user: User,
  text: string,
  score: number,
): Review {
  return em.create(Review, {
    vehicleId: vehicle.id,
    reviewerId: user.id,
    actorRole: user.role as Role,
    actorName: null,
    kind: 'review',
    commentInternal: text,
    score,
    oldStatus: vehicle.status,
    newStatus: vehicle.status,
  });
}

/**
 * A vehicle's history, newest first (in insertion order, which `seq` records). Names are those of
 * the accounts now: full name, else email; 'Gelöschtes Konto' once the account is gone.
 */
export async function listHistory(em: EntityManager, vehicleId: string): Promise<StatusHistoryEntry[]> {
  const rows = await historyRows(em, vehicleId);
  return rows.map((row) => ({
    id: String(row.id),
    vehicleId: String(row.vehicle_id),
    reviewerId: (row.reviewer_id as string | null) ?? null,
    actorName: (row.actor_name as string | null) ?? PRIVACY_MESSAGES.deletedAccount,
    actorRole: String(row.actor_role),
    kind: row.kind as StatusEventKind,
    oldStatus: (row.old_status as VehicleStatus | null) ?? null,
    newStatus: row.new_status as VehicleStatus,
    commentInternal: (row.comment_internal as string | null) ?? null,
    score: (row.score as number | null) ?? null,
    createdAt: new Date(row.created_at as string).toISOString(),
  }));
}

/**
 * The SQL of invitations and places: the places lock, places held per zone, deadlines due, the
 * waitlist's order and given-up places. Statements that take the caller's transaction say so.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { LAST_SUBMISSION_JOIN, LATEST_SCORE_JOIN } from '../model/review-facts.js';
import type { ReleaseReason } from '../model/invitation.entity.js';
import { selectRows, runStatement } from '../db/db.queries.js';

/** Takes the transaction-scoped advisory lock `key` in the caller's transaction. */
export async function advisoryTransactionLock(em: EntityManager, key: number): Promise<void> {
  await em
    .getConnection()
    .execute('select pg_advisory_xact_lock(?)', [key], 'get', em.getTransactionContext());
}

/** Invitations not given up of invited or confirmed vehicles, per zone (in the caller's transaction). */
export function placesPerZone(em: EntityManager): Promise<Array<{ zone: string; taken: string }>> {
  return selectRows<{ zone: string; taken: string }>(
    em,
    `select i.parking_zone as zone, count(*) as taken from invitation i
       join vehicle v on v.id = i.vehicle_id
      where v.status in ('invited', 'confirmed') and i.released_at is null
      group by i.parking_zone`,
    [],
  );
}

/** A new start number from the sequence (never reused), in the caller's transaction. */
export async function nextStartNumber(tx: EntityManager): Promise<number> {
  const [row] = await selectRows<{ n: string }>(tx, `select nextval('invitation_start_number_seq') as n`, []);
  return Number(row!.n);
}

export interface DueRow {
  invitation_id: string;
  vehicle_id: string;
}

/** Invitations of invited vehicles whose reminder moment (`days` before confirm-by) has come. */
export function remindersDue(em: EntityManager, asOf: Date, days: number): Promise<DueRow[]> {
  return em.getConnection().execute<DueRow[]>(
    `select i.id as invitation_id, i.vehicle_id from invitation i join vehicle v on v.id = i.vehicle_id
      where v.status = 'invited' and i.released_at is null and i.reminded_at is null
        and i.confirm_by is not null and i.confirm_by > ?
        and i.confirm_by - make_interval(days => ?) <= ?
      order by i.confirm_by`,
    [asOf, days, asOf],
  );
}

/** Invitations of invited vehicles unconfirmed past their confirm-by date. */
export function lapsesDue(em: EntityManager, asOf: Date): Promise<DueRow[]> {
  return em.getConnection().execute<DueRow[]>(
    `select i.id as invitation_id, i.vehicle_id from invitation i join vehicle v on v.id = i.vehicle_id
      where v.status = 'invited' and i.released_at is null and i.confirm_by is not null and i.confirm_by <= ?
      order by i.confirm_by`,
    [asOf],
  );
}

/**
 * Waitlisted vehicles in the order of moving up (latest score, highest first, then the earlier
 * submission), in the caller's transaction; with `lock`, their rows are locked (others skip them).
 */
export function waitlistInOrder(
  em: EntityManager,
  limit: number,
  lock: boolean,
): Promise<Array<{ id: string; score: number | null; submitted_at: string }>> {
  return selectRows<{ id: string; score: number | null; submitted_at: string }>(
    em,
    `select v.id, s.score, coalesce(sub.submitted_at, v.created_at) as submitted_at
       from vehicle v
       ${LATEST_SCORE_JOIN}
       ${LAST_SUBMISSION_JOIN}
      where v.status = 'waitlist'
      order by s.score desc nulls last, coalesce(sub.submitted_at, v.created_at) asc, v.id
      limit ?${lock ? ' for update of v skip locked' : ''}`,
    [limit],
  );
}

/** Vehicles that hold a place (invited or confirmed), in the caller's transaction. */
export async function countPlacesHeld(em: EntityManager): Promise<number> {
  const [row] = await selectRows<{ held: string }>(
    em,
    `select count(*) as held from vehicle where status in ('invited', 'confirmed')`,
    [],
  );
  return Number(row?.held ?? 0);
}

export interface PendingRelease {
  id: string;
  vehicle_id: string;
  parking_zone: string;
  start_number: number;
  release_reason: ReleaseReason;
}

/** Given-up places not passed on yet, oldest first, locked for the caller's transaction. */
export function lockPendingReleases(em: EntityManager): Promise<PendingRelease[]> {
  return selectRows<PendingRelease>(
    em,
    `select id, vehicle_id, parking_zone, start_number, release_reason from invitation
      where released_at is not null and passed_on_at is null
      order by released_at, start_number for update`,
    [],
  );
}

/** Given-up places not passed on yet. */
export async function countPendingReleases(em: EntityManager): Promise<number> {
  const [pending] = await em
    .getConnection()
    .execute<Array<{ n: string }>>(
      `select count(*) as n from invitation where released_at is not null and passed_on_at is null`,
    );
  return Number(pending?.n ?? 0);
}

/** Marks a given-up place as passed on, in the caller's transaction. */
export async function markPassedOn(em: EntityManager, invitationId: string, at: Date): Promise<void> {
  await runStatement(em, `update invitation set passed_on_at = ? where id = ?`, [at, invitationId]);
}

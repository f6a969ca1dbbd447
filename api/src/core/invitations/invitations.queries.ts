/**
 * The SQL of invitations and places: the places lock, places held per zone, deadlines due, the
 * waitlist's order and given-up places. Statements that take the caller's transaction say so.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { LAST_SUBMISSION_JOIN, SCORE_JOIN } from '../model/review-facts.js';
import type { ReleaseReason } from '../model/invitation.entity.js';
import { selectRows, runStatement } from '../db/db.queries.js';

/** Takes the transaction-scoped advisory lock `key` in the caller's transaction. */
export async function advisoryTransactionLock(em: EntityManager, key: number): Promise<void> {
  await em
    .getConnection()
    .execute('select pg_advisory_xact_lock(?)', [key], 'get', em.getTransactionContext());
}

/**
 * Invitations not given up of the edition's invited or confirmed vehicles, per zone (in the caller's
 * transaction).
 */
export function placesPerZone(
  em: EntityManager,
  editionId: string,
): Promise<Array<{ zone: string; taken: string }>> {
  return selectRows<{ zone: string; taken: string }>(
    em,
    `select i.parking_zone as zone, count(*) as taken from invitation i
       join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and v.status in ('invited', 'confirmed') and i.released_at is null
      group by i.parking_zone`,
    [editionId],
  );
}

/**
 * The edition's next start number, in the caller's transaction: the edition's row stays locked until
 * it ends, so no number is given twice in an edition (a rolled-back issue gives its number back).
 */
export async function nextStartNumber(tx: EntityManager, editionId: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    tx,
    `update edition set next_start_number = next_start_number + 1 where id = ?
      returning next_start_number - 1 as n`,
    [editionId],
  );
  if (!row) throw new Error(`Unknown edition ${editionId}`);
  return Number(row.n);
}

export interface DueRow {
  invitation_id: string;
  vehicle_id: string;
}

/** The edition's invitations of invited vehicles whose reminder moment (`days` before confirm-by) has come. */
export function remindersDue(
  em: EntityManager,
  editionId: string,
  asOf: Date,
  days: number,
): Promise<DueRow[]> {
  return em.getConnection().execute<DueRow[]>(
    `select i.id as invitation_id, i.vehicle_id from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and v.status = 'invited' and i.released_at is null and i.reminded_at is null
        and i.confirm_by is not null and i.confirm_by > ?
        and i.confirm_by - make_interval(days => ?) <= ?
      order by i.confirm_by`,
    [editionId, asOf, days, asOf],
  );
}

/** The edition's invitations of invited vehicles unconfirmed past their confirm-by date. */
export function lapsesDue(em: EntityManager, editionId: string, asOf: Date): Promise<DueRow[]> {
  return em.getConnection().execute<DueRow[]>(
    `select i.id as invitation_id, i.vehicle_id from invitation i join vehicle v on v.id = i.vehicle_id
      where i.edition_id = ? and v.status = 'invited' and i.released_at is null
        and i.confirm_by is not null and i.confirm_by <= ?
      order by i.confirm_by`,
    [editionId, asOf],
  );
}

/**
 * Waitlisted vehicles in the order of moving up (latest score, highest first, then the earlier
 * submission), in the caller's transaction; with `lock`, their rows are locked (others skip them).
 */
export function waitlistInOrder(
  em: EntityManager,
  editionId: string,
  limit: number,
  lock: boolean,
): Promise<Array<{ id: string; score: number | null; submitted_at: string }>> {
  return selectRows<{ id: string; score: number | null; submitted_at: string }>(
    em,
    `select v.id, s.score, coalesce(sub.submitted_at, v.created_at) as submitted_at
       from vehicle v
       ${SCORE_JOIN}
       ${LAST_SUBMISSION_JOIN}
      where v.edition_id = ? and v.status = 'waitlist'
      order by s.score desc nulls last, coalesce(sub.submitted_at, v.created_at) asc, v.id
      limit ?${lock ? ' for update of v skip locked' : ''}`,
    [editionId, limit],
  );
}

/** The edition's vehicles that hold a place (invited or confirmed), in the caller's transaction. */
export async function countPlacesHeld(em: EntityManager, editionId: string): Promise<number> {
  const [row] = await selectRows<{ held: string }>(
    em,
    `select count(*) as held from vehicle where edition_id = ? and status in ('invited', 'confirmed')`,
    [editionId],
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

/** The edition's given-up places not passed on yet, oldest first, locked for the caller's transaction. */
export function lockPendingReleases(em: EntityManager, editionId: string): Promise<PendingRelease[]> {
  return selectRows<PendingRelease>(
    em,
    `select id, vehicle_id, parking_zone, start_number, release_reason from invitation
      where edition_id = ? and released_at is not null and passed_on_at is null
      order by released_at, start_number for update`,
    [editionId],
  );
}

/** The edition's given-up places not passed on yet. */
export async function countPendingReleases(em: EntityManager, editionId: string): Promise<number> {
  const [pending] = await em.getConnection().execute<Array<{ n: string }>>(
    `select count(*) as n from invitation
        where edition_id = ? and released_at is not null and passed_on_at is null`,
    [editionId],
  );
  return Number(pending?.n ?? 0);
}

/** Marks a given-up place as passed on, in the caller's transaction. */
export async function markPassedOn(em: EntityManager, invitationId: string, at: Date): Promise<void> {
  await runStatement(em, `update invitation set passed_on_at = ? where id = ?`, [at, invitationId]);
}

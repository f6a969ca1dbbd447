/** The SQL of reviewing: who reviews which application, their scores, the load per reviewer. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { REVIEW_STATES_SQL } from '../model/review-facts.js';
import { runStatement, selectRows } from '../db/db.queries.js';

/** One balancing run per edition at a time; a review is submitted under the same lock. */
export async function lockEditionReviews(em: EntityManager, editionId: string): Promise<void> {
  await selectRows(em, `select pg_advisory_xact_lock(hashtext('review-balance'), hashtext(?))`, [editionId]);
}

/** A uuid[] parameter as a Postgres array literal (the driver expands a JS array into a list). */
const uuidArray = (ids: readonly string[]): string => `{${ids.join(',')}}`;

const PERSON_NAME = `coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email)`;

/** Accounts with the reviewer role, in a stable order. */
export function reviewerIds(em: EntityManager): Promise<Array<{ id: string }>> {
  return selectRows(em, `select id from users where role = 'reviewer' order by id`);
}

/** Reviewers and admins (an admin may assign either). */
export function staffIds(em: EntityManager): Promise<Array<{ id: string }>> {
  return selectRows(em, `select id from users where role in ('reviewer', 'admin')`);
}

/** Editions with an open review (whose reviewer may have left). */
export function editionsWithOpenReviews(em: EntityManager): Promise<Array<{ edition_id: string }>> {
  return selectRows(em, `select distinct edition_id from review_assignment where submitted_at is null`);
}

/** The edition's applications in review (submitted or in review), in order of arrival. */
export function applicationsInReview(
  em: EntityManager,
  editionId: string,
): Promise<Array<{ id: string; owner_id: string }>> {
  return selectRows(
    em,
    `select v.id, v.user_id as owner_id from vehicle v
      where v.edition_id = ? and v.status in (${REVIEW_STATES_SQL}) order by v.created_at, v.id`,
    [editionId],
  );
}

/** Editions that have applications in review. */
export function editionsInReview(em: EntityManager): Promise<Array<{ edition_id: string }>> {
  return selectRows(em, `select distinct edition_id from vehicle where status in (${REVIEW_STATES_SQL})`);
}

export function allConflicts(em: EntityManager): Promise<Array<{ reviewer_id: string; person_id: string }>> {
  return selectRows(em, `select reviewer_id, person_id from review_conflict`);
}

/** The edition's (application, reviewer) pairs that a bias ended: never assigned again. */
export function editionExclusions(
  em: EntityManager,
  editionId: string,
): Promise<Array<{ vehicle_id: string; reviewer_id: string }>> {
  return selectRows(em, `select vehicle_id, reviewer_id from review_exclusion where edition_id = ?`, [
    editionId,
  ]);
}

/**
 * A bias towards `personId` ends the reviewer's open reviews of that person's applications: each
 * (application, reviewer) pair is recorded, so withdrawing the bias never gives it back.
 */
export function excludeOpenReviewsOf(
  em: EntityManager,
  reviewerId: string,
  personId: string,
): Promise<number> {
  return runStatement(
    em,
    `insert into review_exclusion (edition_id, vehicle_id, reviewer_id)
     select a.edition_id, a.vehicle_id, a.reviewer_id
       from review_assignment a join vehicle v on v.id = a.vehicle_id
      where a.reviewer_id = ? and v.user_id = ? and a.submitted_at is null
     on conflict (vehicle_id, reviewer_id) do nothing`,
    [reviewerId, personId],
  );
}

/** Of these applications, those the staff member submitted a review of. */
export function submittedReviewsOf(
  em: EntityManager,
  reviewerId: string,
  vehicleIds: readonly string[],
): Promise<Array<{ vehicle_id: string }>> {
  if (!vehicleIds.length) return Promise.resolve([]);
  return selectRows(
    em,
    `select vehicle_id from review_assignment
      where reviewer_id = ? and submitted_at is not null and vehicle_id = any(?::uuid[])`,
    [reviewerId, uuidArray(vehicleIds)],
  );
}

/** The owners of these applications. */
export function ownersOf(
  em: EntityManager,
  vehicleIds: readonly string[],
): Promise<Array<{ id: string; owner_id: string }>> {
  if (!vehicleIds.length) return Promise.resolve([]);
  return selectRows(em, `select id, user_id as owner_id from vehicle where id = any(?::uuid[])`, [
    uuidArray(vehicleIds),
  ]);
}

export interface AssignmentRow {
  id: string;
  vehicle_id: string;
  reviewer_id: string | null;
  assigned_by: string | null;
  submitted: boolean;
}

export function editionAssignments(em: EntityManager, editionId: string): Promise<AssignmentRow[]> {
  return selectRows(
    em,
    `select id, vehicle_id, reviewer_id, assigned_by, submitted_at is not null as submitted
       from review_assignment where edition_id = ? order by assigned_at, id`,
    [editionId],
  );
}

/** Removes open assignments (a submitted review is never removed). */
export function deleteOpenAssignments(em: EntityManager, ids: readonly string[]): Promise<number> {
  if (!ids.length) return Promise.resolve(0);
  return runStatement(
    em,
    `delete from review_assignment where id = any(?::uuid[]) and submitted_at is null`,
    [uuidArray(ids)],
  );
}

export function insertAssignments(
  em: EntityManager,
  editionId: string,
  rows: ReadonlyArray<{ vehicleId: string; reviewerId: string }>,
  at: Date,
): Promise<number> {
  if (!rows.length) return Promise.resolve(0);
  return runStatement(
    em,
    `insert into review_assignment (id, edition_id, vehicle_id, reviewer_id, assigned_at)
     select gen_random_uuid(), ?, t.vehicle_id, t.reviewer_id, ?
       from unnest(?::uuid[], ?::uuid[]) as t(vehicle_id, reviewer_id)`,
    [editionId, at, uuidArray(rows.map((r) => r.vehicleId)), uuidArray(rows.map((r) => r.reviewerId))],
  );
}

/** Moves open assignments to other reviewers (by the balancing, or an admin when `by` is set). */
export function moveAssignments(
  em: EntityManager,
  moves: ReadonlyArray<{ id: string; to: string }>,
  at: Date,
  by: string | null = null,
): Promise<number> {
  if (!moves.length) return Promise.resolve(0);
  return runStatement(
    em,
    `update review_assignment a set reviewer_id = t.reviewer_id, assigned_at = ?, assigned_by = ?
       from unnest(?::uuid[], ?::uuid[]) as t(id, reviewer_id)
      where a.id = t.id and a.submitted_at is null`,
    [at, by, uuidArray(moves.map((m) => m.id)), uuidArray(moves.map((m) => m.to))],
  );
}

export interface ReviewRow {
  id: string;
  reviewer_id: string | null;
  reviewer_name: string | null;
  assigned_at: string;
  submitted_at: string | null;
  scores: Record<string, number> | null;
  total: string | null;
  comment: string | null;
}

/** An application's assignments with the reviewers' names (null once the account is gone). */
export function reviewsOfVehicle(em: EntityManager, vehicleId: string): Promise<ReviewRow[]> {
  return selectRows(
    em,
    `select a.id, a.reviewer_id, ${PERSON_NAME} as reviewer_name, a.assigned_at, a.submitted_at,
            a.scores, a.total, a.comment
       from review_assignment a left join users u on u.id = a.reviewer_id
      where a.vehicle_id = ? order by a.submitted_at nulls last, a.assigned_at, a.id`,
    [vehicleId],
  );
}

/** Staff who may take a review of this application: not its owner, not biased, not excluded, not assigned yet. */
export function reassignCandidates(
  em: EntityManager,
  vehicleId: string,
  editionId: string,
): Promise<Array<{ id: string; name: string; open: string }>> {
  return selectRows(
    em,
    `select u.id, ${PERSON_NAME} as name,
            (select count(*) from review_assignment a join vehicle v on v.id = a.vehicle_id
              where a.reviewer_id = u.id and a.edition_id = ? and a.submitted_at is null
                and v.status in (${REVIEW_STATES_SQL})) as open
       from users u, vehicle o
      where o.id = ? and u.role in ('reviewer', 'admin') and u.id <> o.user_id
        and not exists (select 1 from review_conflict c where c.reviewer_id = u.id and c.person_id = o.user_id)
        and not exists (select 1 from review_assignment a where a.vehicle_id = o.id and a.reviewer_id = u.id)
        and not exists (select 1 from review_exclusion x where x.vehicle_id = o.id and x.reviewer_id = u.id)
      order by u.role desc, open, name`,
    [editionId, vehicleId],
  );
}

export interface MyReviewRow {
  vehicle_id: string;
  title: string;
  owner_name: string;
  status: string;
  assigned_at: string;
  submitted_at: string | null;
  total: string | null;
}

/** A reviewer's assignments of one edition: the open ones (application still in review) and the submitted ones. */
export function myAssignments(
  em: EntityManager,
  reviewerId: string,
  editionId: string,
): Promise<MyReviewRow[]> {
  return selectRows(
    em,
    `select a.vehicle_id, v.title, ${PERSON_NAME} as owner_name, v.status, a.assigned_at, a.submitted_at, a.total
       from review_assignment a join vehicle v on v.id = a.vehicle_id join users u on u.id = v.user_id
      where a.reviewer_id = ? and a.edition_id = ?
        and (a.submitted_at is not null or v.status in (${REVIEW_STATES_SQL}))
      order by a.submitted_at desc nulls first, a.assigned_at, v.created_at, a.id`,
    [reviewerId, editionId],
  );
}

/** Per reviewer (and anyone else with reviews in the edition): open and submitted reviews, declared conflicts. */
export function loadPerReviewer(
  em: EntityManager,
  editionId: string,
): Promise<
  Array<{ id: string; name: string; email: string; open: string; submitted: string; conflicts: string }>
> {
  return selectRows(
    em,
    `select u.id, ${PERSON_NAME} as name, u.email,
            count(a.id) filter (where a.submitted_at is null and v.status in (${REVIEW_STATES_SQL})) as open,
            count(a.id) filter (where a.submitted_at is not null) as submitted,
            (select count(*) from review_conflict c where c.reviewer_id = u.id) as conflicts
       from users u
       left join review_assignment a on a.reviewer_id = u.id and a.edition_id = ?
       left join vehicle v on v.id = a.vehicle_id
      where u.role = 'reviewer' or a.id is not null
      group by u.id order by name`,
    [editionId],
  );
}

/** Applications in review and how many of them have fewer reviewers than `per`. */
export async function reviewCoverage(
  em: EntityManager,
  editionId: string,
  per: number,
): Promise<{ inReview: number; understaffed: number }> {
  const [row] = await selectRows<{ in_review: string; understaffed: string }>(
    em,
    `select count(*) as in_review, count(*) filter (where n < ?) as understaffed
       from (select v.id, (select count(*) from review_assignment a where a.vehicle_id = v.id) as n
               from vehicle v where v.edition_id = ? and v.status in (${REVIEW_STATES_SQL})) t`,
    [per, editionId],
  );
  return { inReview: Number(row?.in_review ?? 0), understaffed: Number(row?.understaffed ?? 0) };
}

/** The edition's applications in review with fewer reviewers than `per`, oldest first. */
export function understaffedApplications(
  em: EntityManager,
  editionId: string,
  per: number,
  limit: number,
): Promise<Array<{ id: string; title: string; owner_name: string; status: string; n: string }>> {
  return selectRows(
    em,
    `select t.id, t.title, ${PERSON_NAME} as owner_name, t.status, t.n
       from (select v.id, v.title, v.status, v.user_id, v.created_at,
                    (select count(*) from review_assignment a where a.vehicle_id = v.id) as n
               from vehicle v where v.edition_id = ? and v.status in (${REVIEW_STATES_SQL})) t
       join users u on u.id = t.user_id
      where t.n < ? order by t.created_at, t.id limit ?`,
    [editionId, per, limit],
  );
}

/** Whether any review of the edition was submitted. */
export async function anyReviewSubmitted(em: EntityManager, editionId: string): Promise<boolean> {
  const rows = await selectRows(
    em,
    `select 1 from review_assignment where edition_id = ? and submitted_at is not null limit 1`,
    [editionId],
  );
  return rows.length > 0;
}

export function conflictsOf(
  em: EntityManager,
  reviewerId: string,
): Promise<Array<{ id: string; person_id: string; name: string; email: string; created_at: string }>> {
  return selectRows(
    em,
    `select c.id, c.person_id, ${PERSON_NAME} as name, u.email, c.created_at
       from review_conflict c join users u on u.id = c.person_id
      where c.reviewer_id = ? order by name`,
    [reviewerId],
  );
}

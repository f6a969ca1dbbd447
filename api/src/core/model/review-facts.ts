/**
 * What the reviews and the status log say about a vehicle `v`, as SQL joins for set-based reads
 * (moving up, the organizers' export): `s.score`, the application's score (the mean of its submitted
 * reviews' weighted scores; without any, the latest score given with a status change), and
 * `sub.submitted_at`, when the application was last submitted.
 */
export const SCORE_JOIN = `left join lateral (select coalesce(
      (select avg(a.total)::float8 from review_assignment a where a.vehicle_id = v.id and a.submitted_at is not null),
      (select r.score::float8 from review r where r.vehicle_id = v.id and r.score is not null and r.kind = 'status'
        order by r.seq desc limit 1)) as score) s on true`;

export const LAST_SUBMISSION_JOIN = `left join lateral (select max(r.created_at) as submitted_at from review r
    where r.vehicle_id = v.id and r.new_status = 'submitted') sub on true`;

/** The statuses in which an application is reviewed (assigned reviewers, open reviews). */
export const REVIEW_STATES = ['submitted', 'in_review'] as const;
export const REVIEW_STATES_SQL = REVIEW_STATES.map((status) => `'${status}'`).join(', ');

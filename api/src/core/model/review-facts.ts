/**
 * What the status log says about a vehicle `v`, as SQL joins for set-based reads (moving up, the
 * organizers' export): `s.score`, the latest score a reviewer gave, and `sub.submitted_at`, when the
 * application was last submitted.
 */
export const LATEST_SCORE_JOIN = `left join lateral (select r.score from review r
    where r.vehicle_id = v.id and r.score is not null order by r.seq desc limit 1) s on true`;

export const LAST_SUBMISSION_JOIN = `left join lateral (select max(r.created_at) as submitted_at from review r
    where r.vehicle_id = v.id and r.new_status = 'submitted') sub on true`;

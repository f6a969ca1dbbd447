import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Rows that nothing may leave behind, whatever requests came before, each as a count query. Foreign
 * keys already rule out most orphans; these are the relations the schema cannot hold.
 */
const CHECKS = {
  /** A session of an account that no longer exists. */
  sessionsWithoutUser: `select count(*) from session s
     where s.sess->>'userId' is not null and not exists (select 1 from users u where u.id::text = s.sess->>'userId')`,
  /** A vehicle whose creation is not in the status log. */
  vehiclesWithoutLog: `select count(*) from vehicle v where not exists (select 1 from review r where r.vehicle_id = v.id)`,
  /** Internal notes kept for a vehicle that is gone (with its account, they are redacted). */
  notesOfDeletedVehicles: `select count(*) from review r
     where r.comment_internal is not null and not exists (select 1 from vehicle v where v.id = r.vehicle_id)`,
  /** A consent recorded for someone else's vehicle. */
  consentsOfOtherVehicles: `select count(*) from consent c join vehicle v on v.id = c.vehicle_id where v.user_id <> c.user_id`,
  /** An image whose url is not its own clean rendition. */
  mediaWithForeignUrl: `select count(*) from media m where m.url not like '/objects/media/' || m.id || '/full.%'`,
  /** An invitation of a vehicle that was never invited. */
  invitationsNeverInvited: `select count(*) from invitation i where not exists
     (select 1 from review r where r.vehicle_id = i.vehicle_id and r.new_status = 'invited')`,
  /** A pending email change without its link, or a link without an address. */
  halfEmailChanges: `select count(*) from users where (pending_email is null) <> (email_change_token is null)`,
  /** A ready data export without its file. */
  exportsWithoutFile: `select count(*) from data_export where status = 'ready' and object_key is null`,
} as const;

export type IntegrityReport = Record<keyof typeof CHECKS, number>;

/** Counts per check; all zero when the data is whole. */
export async function findOrphans(em: EntityManager): Promise<IntegrityReport> {
  const connection = em.getConnection();
  const entries = await Promise.all(
    Object.entries(CHECKS).map(async ([name, sql]) => {
      const [row] = await connection.execute<{ count: string }[]>(sql);
      return [name, Number(row?.count ?? 0)] as const;
    }),
  );
  return Object.fromEntries(entries) as IntegrityReport;
}

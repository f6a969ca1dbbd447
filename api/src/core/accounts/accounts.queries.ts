/**
 * The SQL of accounts: the session table (koa-session's store, ending sessions), the account lock
 * of the per-account limits, account deletion's redactions, and the personal-data export's reads.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows, runStatement } from '../db/db.queries.js';

// Sessions (the table holds SHA-256 hashes of session ids, never the ids themselves).

/** A session's data by hashed id, unless expired. */
export async function readSession(
  em: EntityManager,
  sidHash: string,
): Promise<Record<string, unknown> | undefined> {
  const rows = await em
    .getConnection()
    .execute<Array<{ sess: Record<string, unknown> }>>(
      'select sess from session where sid = ? and expire > now()',
      [sidHash],
    );
  return rows[0]?.sess;
}

export async function writeSession(
  em: EntityManager,
  sidHash: string,
  sess: Record<string, unknown>,
  expire: Date,
): Promise<void> {
  await em.getConnection().execute(
    `insert into session (sid, sess, expire) values (?, ?, ?)
         on conflict (sid) do update set sess = excluded.sess, expire = excluded.expire`,
    [sidHash, JSON.stringify(sess), expire],
  );
}

export async function deleteSession(em: EntityManager, sidHash: string): Promise<void> {
  await em.getConnection().execute('delete from session where sid = ?', [sidHash]);
}

/** Deletes a user's sessions except the one hashed `exceptHash`, in the caller's transaction. */
export async function deleteUserSessions(
  em: EntityManager,
  userId: string,
  exceptHash: string,
): Promise<number> {
  return runStatement(em, `delete from session where sess->>'userId' = ? and sid <> ?`, [userId, exceptHash]);
}

export async function deleteExpiredSessions(em: EntityManager): Promise<void> {
  await em.getConnection().execute('delete from session where expire < now()', [], 'run');
}

// Limits.

/**
 * Locks the account's row for the caller's transaction (NO KEY UPDATE: rows that merely reference
 * it are not held up); false when there is no such account.
 */
export async function lockAccountRow(em: EntityManager, userId: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(em, 'select id from users where id = ? for no key update', [
    userId,
  ]);
  return rows.length > 0;
}

// Deleting an account (each in the caller's transaction).

/** Marks the quartett sets that printed one of these vehicles. */
export async function markSetsWithDeletedAccount(tx: EntityManager, vehicleIds: string[]): Promise<void> {
  const list = vehicleIds.map(() => '?').join(', ');
  await runStatement(
    tx,
    `update quartett_set set contains_deleted_account = true
          where id in (select set_id from quartett_card where vehicle_id in (${list}))`,
    vehicleIds,
  );
}

/** Clears the internal comments on these vehicles' status log: the one redaction the log allows. */
export async function redactStatusLogComments(tx: EntityManager, vehicleIds: string[]): Promise<void> {
  const list = vehicleIds.map(() => '?').join(', ');
  await runStatement(tx, `select set_config('schlosstreffen.redact_status_log', 'on', true)`, []);
  await runStatement(
    tx,
    `update review set comment_internal = null where vehicle_id in (${list}) and comment_internal is not null`,
    vehicleIds,
  );
  await runStatement(tx, `select set_config('schlosstreffen.redact_status_log', 'off', true)`, []);
}

/**
 * Outbox rows of mails to one of `emails`: any to a `confirmed` address, else those of the given
 * templates (an account's own mails).
 */
export async function outboxMailsTo(
  tx: EntityManager,
  emails: string[],
  confirmed: string[],
  templates: string[],
): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    tx,
    `select id from outbox
        where payload->>'to' in (${emails.map(() => '?').join(', ')})
          and (payload->>'to' in (${confirmed.map(() => '?').join(', ') || 'null'})
               or payload->>'template' in (${templates.map(() => '?').join(', ')}))`,
    [...emails, ...confirmed, ...templates],
  );
  return rows.map((row) => row.id);
}

// The personal-data export.

/** The scans of the user's cars at a gate, and the scans the user made as staff, in time order. */
export function gateScansOf(em: EntityManager, userId: string): Promise<Array<Record<string, unknown>>> {
  return em.getConnection().execute<Array<Record<string, unknown>>>(
    `select s.invitation_id, s.gate, s.scanned_at, s.staff_id, i.start_number,
            (i.checked_in_scan_id = s.id) as admitted
       from check_in_scan s join invitation i on i.id = s.invitation_id
      where s.staff_id = ? or i.vehicle_id in (select id from vehicle where user_id = ?)
      order by s.scanned_at`,
    [userId, userId],
  );
}

/** The visitor updates sent (or being sent) to these registrations, with their state. */
export function visitorUpdatesOf(
  em: EntityManager,
  registrationIds: string[],
): Promise<Array<Record<string, unknown>>> {
  return em.getConnection().execute<Array<Record<string, unknown>>>(
    `select r.registration_id, u.subject, r.state, r.sent_at from visitor_update_recipient r
         join visitor_update u on u.id = r.update_id
        where r.registration_id in (${registrationIds.map(() => '?').join(', ')}) order by u.started_at`,
    registrationIds,
  );
}

/** These vehicles' status history as their owner may see it (no notes, scores or names). */
export function ownHistoryOf(em: EntityManager, vehicleIds: string[]): Promise<Record<string, unknown>[]> {
  return em.getConnection().execute<Record<string, unknown>[]>(
    `select vehicle_id, actor_role, kind, old_status, new_status, created_at from review
            where vehicle_id in (${vehicleIds.map(() => '?').join(', ')}) order by vehicle_id, seq`,
    vehicleIds,
  );
}

// The staff's second factor and the Team page.

/**
 * Takes a TOTP time step for the account, once: only when no code of this step or a later one was
 * taken before (a code seen once is refused however soon it comes again). False when refused.
 */
export async function claimSecondFactorStep(
  em: EntityManager,
  userId: string,
  step: number,
): Promise<boolean> {
  const changed = await runStatement(
    em,
    `update users set second_factor_last_step = ?
      where id = ? and second_factor_secret is not null
        and (second_factor_last_step is null or second_factor_last_step < ?)`,
    [step, userId, step],
  );
  return changed > 0;
}

/**
 * Uses up one recovery code of the account (its SHA-256 hash): removed in the same statement that
 * finds it, so two requests with one code cannot both succeed. The codes left, or null when the
 * code is not among them.
 */
export async function takeRecoveryCode(
  em: EntityManager,
  userId: string,
  hash: string,
): Promise<number | null> {
  const rows = await selectRows<{ codes_left: number }>(
    em,
    `update users set second_factor_recovery_codes = array_remove(second_factor_recovery_codes, ?)
      where id = ? and second_factor_enabled_at is not null and ? = any(second_factor_recovery_codes)
      returning coalesce(cardinality(second_factor_recovery_codes), 0)::int as codes_left`,
    [hash, userId, hash],
  );
  return rows[0]?.codes_left ?? null;
}

/** A staff account as the Team page lists it. */
export interface StaffRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  role: 'admin' | 'reviewer';
  second_factor_enabled_at: Date | null;
  recovery_codes_left: number;
}

/** Every admin and reviewer, admins first, then by name. */
export function staffMembers(em: EntityManager): Promise<StaffRow[]> {
  return selectRows<StaffRow>(
    em,
    `select id, first_name, last_name, email, role, second_factor_enabled_at,
            coalesce(cardinality(second_factor_recovery_codes), 0)::int as recovery_codes_left
       from users where role in ('admin', 'reviewer')
      order by role = 'admin' desc, lower(last_name), lower(first_name), email`,
  );
}

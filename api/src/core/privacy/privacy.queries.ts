/**
 * The SQL of retention: what is due is found and removed in plain statements, each in the caller's
 * transaction; the counting ones return how many rows they changed.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows, runStatement } from '../db/db.queries.js';

/** Uploads signed before `before` that no media row names (never attached, or left behind). */
export async function unattachedUploadKeys(tx: EntityManager, before: Date): Promise<string[]> {
  const rows = await selectRows<{ key: string }>(
    tx,
    `select u.key from upload u where u.created_at < ? and not exists (select 1 from media m where m.upload_key = u.key)`,
    [before],
  );
  return rows.map((row) => row.key);
}

/**
 * The scans at an edition's gates: the cars' go; the visitors' stay only as counts (the look back's
 * total), without ticket, device or staff account.
 */
export const deleteGateScans = async (tx: EntityManager, editionId: string) =>
  (await runStatement(
    tx,
    `delete from check_in_scan where invitation_id in (select id from invitation where edition_id = ?)`,
    [editionId],
  )) +
  (await runStatement(
    tx,
    `update visitor_ticket_scan set ticket_id = null, device_id = null, staff_id = null
      where edition_id = ? and (ticket_id is not null or device_id is not null or staff_id is not null)`,
    [editionId],
  ));

export const clearExpiredResetTokens = (tx: EntityManager, asOf: Date) =>
  runStatement(
    tx,
    `update users set reset_token = null, reset_token_expiry = null where reset_token_expiry < ?`,
    [asOf],
  );

export const clearExpiredEmailChanges = (tx: EntityManager, asOf: Date) =>
  runStatement(
    tx,
    `update users set pending_email = null, email_change_token = null, email_change_expiry = null,
                        email_change_cancel_token = null
        where email_change_expiry < ?`,
    [asOf],
  );

export const clearExpiredConfirmTokens = (tx: EntityManager, asOf: Date) =>
  runStatement(
    tx,
    `update users set email_confirm_token = null, email_confirm_expiry = null where email_confirm_expiry < ?`,
    [asOf],
  );

export const deleteSessionsExpiredBy = (tx: EntityManager, asOf: Date) =>
  runStatement(tx, `delete from session where expire < ?`, [asOf]);

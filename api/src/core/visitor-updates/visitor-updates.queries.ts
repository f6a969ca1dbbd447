/**
 * The SQL of visitor updates: recipients counted, fixed, claimed and marked in plain statements.
 * Each function runs one statement on the given entity manager (in its transaction where noted).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows, runStatement } from '../db/db.queries.js';

/** Recipients per update and state (`n` as text). */
export function recipientStates(
  em: EntityManager,
  updateIds: string[],
): Promise<Array<{ update_id: string; state: string; n: string }>> {
  return em.getConnection().execute<Array<{ update_id: string; state: string; n: string }>>(
    `select update_id, state, count(*) as n from visitor_update_recipient
      where update_id in (${updateIds.map(() => '?').join(', ')}) group by 1, 2`,
    updateIds,
  );
}

/** The edition's confirmed visitors who did not unsubscribe. */
export async function countLiveVisitors(em: EntityManager, editionId: string): Promise<number> {
  const [row] = await em.getConnection().execute<Array<{ n: string }>>(
    `select count(*) as n from visitor_registration
        where edition_id = ? and confirmed_at is not null and unsubscribed_at is null`,
    [editionId],
  );
  return Number(row?.n ?? 0);
}

/** One pending recipient row per live visitor of the update's edition, in the caller's transaction; their ids. */
export function insertRecipients(em: EntityManager, updateId: string): Promise<Array<{ id: string }>> {
  return selectRows<{ id: string }>(
    em,
    `insert into visitor_update_recipient (id, update_id, registration_id, state)
         select gen_random_uuid(), u.id, r.id, 'pending'
           from visitor_update u join visitor_registration r on r.edition_id = u.edition_id
          where u.id = ? and r.confirmed_at is not null and r.unsubscribed_at is null
         returning id`,
    [updateId],
  );
}

/** Stores the preview when the draft is still at `revision`; whether a row changed. */
export async function storePreview(
  em: EntityManager,
  updateId: string,
  revision: number,
  html: string,
): Promise<boolean> {
  const changed = await em
    .getConnection()
    .execute(
      `update visitor_update set preview_html = ?, preview_revision = ? where id = ? and revision = ?`,
      [html, revision, updateId, revision],
      'run',
    );
  return (changed as { affectedRows?: number }).affectedRows !== 0;
}

export async function subjectAndBody(
  em: EntityManager,
  updateId: string,
): Promise<{ subject: string; body: string; status: string; editionId: string } | undefined> {
  const [row] = await em
    .getConnection()
    .execute<Array<{ subject: string; body: string; status: string; editionId: string }>>(
      `select subject, body, status, edition_id as "editionId" from visitor_update where id = ?`,
      [updateId],
    );
  return row;
}

export interface NextRecipientRow {
  id: string;
  registration_id: string | null;
  email: string | null;
  first_name: string | null;
  live: boolean | null;
}

/**
 * The next recipient to send to, locked in the caller's transaction (others skip it): pending, or
 * left 'sending' by a run that claimed it before `runStartedAt`.
 */
export async function lockNextRecipient(
  tx: EntityManager,
  updateId: string,
  runStartedAt: Date,
): Promise<NextRecipientRow | undefined> {
  const [row] = await selectRows<NextRecipientRow>(
    tx,
    `select r.id, r.registration_id, v.email, v.first_name,
              (v.confirmed_at is not null and v.unsubscribed_at is null) as live
         from visitor_update_recipient r
         left join visitor_registration v on v.id = r.registration_id
        where r.update_id = ? and (r.state = 'pending' or (r.state = 'sending' and r.claimed_at < ?))
        order by r.state desc, r.id
        limit 1
        for update of r skip locked`,
    [updateId, runStartedAt],
  );
  return row;
}

export async function markRecipientUnsubscribed(tx: EntityManager, recipientId: string): Promise<void> {
  await runStatement(tx, `update visitor_update_recipient set state = 'unsubscribed' where id = ?`, [
    recipientId,
  ]);
}

export async function markRecipientSending(tx: EntityManager, recipientId: string): Promise<void> {
  await runStatement(
    tx,
    `update visitor_update_recipient set state = 'sending', claimed_at = now(), attempts = attempts + 1 where id = ?`,
    [recipientId],
  );
}

export async function markRecipientSent(em: EntityManager, recipientId: string): Promise<void> {
  await em
    .getConnection()
    .execute(
      `update visitor_update_recipient set state = 'sent', sent_at = now(), error = null where id = ?`,
      [recipientId],
      'run',
    );
}

/** Back to pending after a failed try, or failed once `maxAttempts` are used up. */
export async function markRecipientFailed(
  em: EntityManager,
  recipientId: string,
  error: string,
  maxAttempts: number,
): Promise<'failed' | 'pending'> {
  const rows = await em.getConnection().execute<{ state: 'failed' | 'pending' }[]>(
    `update visitor_update_recipient
              set state = case when attempts >= ? then 'failed' else 'pending' end, error = ?
            where id = ?
        returning state`,
    [maxAttempts, error, recipientId],
    'all',
  );
  return rows[0]?.state ?? 'pending';
}

export async function markUpdateSent(em: EntityManager, updateId: string): Promise<void> {
  await em
    .getConnection()
    .execute(
      `update visitor_update set status = 'sent', finished_at = coalesce(finished_at, now()) where id = ?`,
      [updateId],
      'run',
    );
}

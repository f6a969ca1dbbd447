import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/** The `session` table holds SHA-256 hashes of session ids, never the ids (cookies) themselves. */
export const hashSessionId = (sid: string) => createHash('sha256').update(sid).digest('hex');

/** Ends every session of a user, except the one given (the caller's own). */
export async function destroyUserSessions(
  em: EntityManager,
  userId: string,
  exceptSid?: string,
): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows: number }>(
      `delete from session where sess->>'userId' = ? and sid <> ?`,
      [userId, exceptSid ? hashSessionId(exceptSid) : ''],
      'run',
      em.getTransactionContext(),
    );
  return result.affectedRows;
}

export async function pruneExpiredSessions(em: EntityManager): Promise<void> {
  await em.getConnection().execute('delete from session where expire < now()', [], 'run');
}

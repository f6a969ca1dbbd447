import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteExpiredSessions, deleteUserSessions } from './accounts.queries.js';

/** The `session` table holds SHA-256 hashes of session ids, never the ids (cookies) themselves. */
export const hashSessionId = (sid: string) => createHash('sha256').update(sid).digest('hex');

/** Ends every session of a user, except the one given (the caller's own). */
export async function destroyUserSessions(
  em: EntityManager,
  userId: string,
  exceptSid?: string,
): Promise<number> {
  return deleteUserSessions(em, userId, exceptSid ? hashSessionId(exceptSid) : '');
}

export async function pruneExpiredSessions(em: EntityManager): Promise<void> {
  await deleteExpiredSessions(em);
}

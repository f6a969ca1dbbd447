import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteSession, readSession, writeSession } from '../core/accounts/accounts.queries.js';
import { hashSessionId } from '../core/accounts/sessions.js';

/** Idle lifetime: a session unused this long ends (every request renews it). */
export const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Absolute lifetime: however active, a session ends this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * koa-session external store backed by the `session` table (sid, sess, expire). Only a hash of
 * each session id is stored: the table's content cannot be replayed as cookies.
 */
export function createSessionStore(em: EntityManager) {
  return {
    get(sid: string): Promise<Record<string, unknown> | undefined> {
      return readSession(em, hashSessionId(sid));
    },
    async set(
      sid: string,
      sess: Record<string, unknown>,
      maxAge: number | 'session' | undefined,
    ): Promise<void> {
      const ttl = typeof maxAge === 'number' ? maxAge : SESSION_MAX_AGE_MS;
      await writeSession(em, hashSessionId(sid), sess, new Date(Date.now() + ttl));
    },
    async destroy(sid: string): Promise<void> {
      await deleteSession(em, hashSessionId(sid));
    },
  };
}

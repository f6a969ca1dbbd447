import type { EntityManager } from '@mikro-orm/postgresql';
import { hashSessionId } from '../core/accounts/sessions.js';

/** Idle lifetime: a session unused this long ends (every request renews it). */
export const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Absolute lifetime: however active, a session ends this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

interface SessionRow {
  sess: Record<string, unknown>;
}

/**
 * koa-session external store backed by the `session` table (sid, sess, expire). Only a hash of
 * each session id is stored: the table's content cannot be replayed as cookies.
 */
export function createSessionStore(em: EntityManager) {
  const connection = () => em.getConnection();
  return {
    async get(sid: string): Promise<Record<string, unknown> | undefined> {
      const rows = await connection().execute<SessionRow[]>(
        'select sess from session where sid = ? and expire > now()',
        [hashSessionId(sid)],
      );
      return rows[0]?.sess;
    },
    async set(
      sid: string,
      sess: Record<string, unknown>,
      maxAge: number | 'session' | undefined,
    ): Promise<void> {
      const ttl = typeof maxAge === 'number' ? maxAge : SESSION_MAX_AGE_MS;
      await connection().execute(
        `insert into session (sid, sess, expire) values (?, ?, ?)
         on conflict (sid) do update set sess = excluded.sess, expire = excluded.expire`,
        [hashSessionId(sid), JSON.stringify(sess), new Date(Date.now() + ttl)],
      );
    },
    async destroy(sid: string): Promise<void> {
      await connection().execute('delete from session where sid = ?', [hashSessionId(sid)]);
    },
  };
}

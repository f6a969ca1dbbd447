import type { EntityManager } from '@mikro-orm/postgresql';

export const SESSION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

interface SessionRow {
  sess: Record<string, unknown>;
}

/** koa-session external store backed by the `session` table (sid, sess, expire). */
export function createSessionStore(em: EntityManager) {
  const connection = () => em.getConnection();
  return {
    async get(sid: string): Promise<Record<string, unknown> | undefined> {
      const rows = await connection().execute<SessionRow[]>(
        'select sess from session where sid = ? and expire > now()',
        [sid],
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
        [sid, JSON.stringify(sess), new Date(Date.now() + ttl)],
      );
    },
    async destroy(sid: string): Promise<void> {
      await connection().execute('delete from session where sid = ?', [sid]);
    },
  };
}

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
      [userId, exceptSid ?? ''],
      'run',
      em.getTransactionContext(),
    );
  return result.affectedRows;
}

export async function pruneExpiredSessions(em: EntityManager): Promise<void> {
  await em.getConnection().execute('delete from session where expire < now()', [], 'run');
}

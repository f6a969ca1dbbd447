import type { EntityManager } from '@mikro-orm/postgresql';
import type { Role } from '@schlosstreffen/shared';
import { destroyUserSessions } from './sessions.js';
import { User } from '../model/user.entity.js';

/**
 * Gives an account a role. Its sessions end: a changed privilege takes a new sign-in, so no
 * session carries a role it was not started with. Undefined when no account has the email.
 */
export async function setRole(em: EntityManager, email: string, role: Role): Promise<User | undefined> {
  return em.fork().transactional(async (tx) => {
    const user = await tx.findOne(User, { email: email.trim().toLowerCase() });
    if (!user) return undefined;
    if (user.role !== role) {
      user.role = role;
      await destroyUserSessions(tx, user.id);
    }
    return user;
  });
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { isStaffRole, type Role } from '@schlosstreffen/shared';
import { recordAudit, type AuditActor } from '../audit/audit.js';
import { clearSecondFactor } from './second-factor.js';
import { destroyUserSessions } from './sessions.js';
import { balanceAllEditions } from '../reviews/reviews.js';
import { User } from '../model/user.entity.js';
import { ReviewConflict } from '../model/review-assignment.entity.js';

/** Who changes a role: an admin (with the request's address) or the system (the command line). */
export interface RoleChangeBy {
  actor: AuditActor;
  ip?: string | null;
  /** The app's clock: which editions' open reviews are spread anew (not those that are over). */
  at?: Date;
}

/**
 * Gives an account a role. Its sessions end: a changed privilege takes a new sign-in, so no
 * session carries a role it was not started with. Joining or leaving the staff resets the second
 * factor (second-factor.ts). A change is one audit row (target: the account
 * id; details: the roles before and after) in the same transaction. Undefined when no account has
 * the email.
 */
export async function setRole(
  em: EntityManager,
  email: string,
  role: Role,
  by: RoleChangeBy,
): Promise<User | undefined> {
  return em.fork().transactional(async (tx) => {
    const user = await tx.findOne(User, { email: email.trim().toLowerCase() });
    if (!user) return undefined;
    if (user.role !== role) {
      recordAudit(tx, {
        ...by.actor,
        action: 'accounts.role',
        target: user.id,
        details: { from: user.role, to: role },
        ip: by.ip ?? null,
      });
      const reviewerChange = user.role === 'reviewer' || role === 'reviewer';
      // Joining or leaving the team: a second factor of before does not carry over, so whoever
      // is given a staff role sets up their own at the next sign-in.
      if (isStaffRole(user.role) !== isStaffRole(role)) clearSecondFactor(tx, user);
      user.role = role;
      await destroyUserSessions(tx, user.id);
      // Without a staff role, the list of people one is biased towards has no purpose left.
      if (role === 'user') await tx.nativeDelete(ReviewConflict, { reviewerId: user.id });
      // A reviewer joined or left: open reviews are spread anew.
      if (reviewerChange) {
        await tx.flush();
        await balanceAllEditions(tx, by.at ?? new Date());
      }
    }
    return user;
  });
}

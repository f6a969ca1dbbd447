import type * as Api from '@schlosstreffen/shared/api';
import type { EntityManager } from '@mikro-orm/postgresql';
import { bounceOf } from '../../core/emails/email-log.js';
import type { User } from '../../core/model/user.entity.js';
import { judgesCurrentEdition } from '../../core/jury/jury-scoring.js';

/** The signed-in user's own view: never the password hash or reset token. */
export function presentUser(user: User): Api.CurrentUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl ?? null,
    phone: user.phone ?? null,
    instagramHandle: user.instagramHandle ?? null,
    role: user.role,
    consentMedia: user.consentMedia,
    consentQuartett: user.consentQuartett,
    consentContact: user.consentContact,
    emailVerified: user.emailVerified,
    pendingEmail: user.pendingEmail ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** The owner as staff lists show them: contact data, no secrets. */
export function presentOwner(user: User): Api.Owner {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone ?? null,
    role: user.role,
  };
}

/**
 * The signed-in user as `GET /api/auth/user` and the server-rendered pages give it: with
 * `mailBounced`, so the dashboard asks the owner to correct an address mail servers refuse. The
 * server's answer stays with the staff.
 */
export async function presentCurrentUser(
  em: EntityManager,
  user: User,
  /** The app's clock: which edition is current (a judge of it gets the 'Jury' screens). */
  at: Date = new Date(),
): Promise<Api.CurrentUser> {
  const bounce = await bounceOf(em, user.email);
  return {
    ...presentUser(user),
    mailBounced: bounce ? { address: user.email, since: bounce.bouncedAt.toISOString() } : null,
    judge: await judgesCurrentEdition(em, user.id, at),
  };
}

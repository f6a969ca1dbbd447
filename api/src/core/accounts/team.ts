import type { EntityManager } from '@mikro-orm/postgresql';
import { isStaffRole, TEAM_MESSAGES, type Role, type TeamRole } from '@schlosstreffen/shared';
import { auditActorOf } from '../audit/audit.js';
import { conflict, invalid, notFound } from '../errors.js';
import { User } from '../model/user.entity.js';
import { staffMembers, type StaffRow } from './accounts.queries.js';
import { setRole } from './roles.js';
import { resetSecondFactor } from './second-factor.js';

/**
 * The Team page's use cases (admins): who holds a staff role, giving one to an account with a
 * confirmed address, taking it away and resetting a second factor. Role changes go through
 * `setRole` (sessions end, second factor reset on joining or leaving, audit row, reviews spread).
 */

/** Who acts: the signed-in admin and the request's address. */
export interface TeamActor {
  admin: User;
  ip: string | null;
  /** The app's clock. */
  at?: Date;
}

export const listTeam = (em: EntityManager): Promise<StaffRow[]> => staffMembers(em.fork());

const nameOf = (user: User) => [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

/** An admin never takes their own admin role: another admin does, so the team keeps one. */
function refuseOwnAdminRole(user: User, role: Role, by: TeamActor): void {
  if (user.id === by.admin.id && user.role === 'admin' && role !== 'admin') {
    throw conflict(TEAM_MESSAGES.ownAdminRole);
  }
}

/**
 * Gives the account with this (confirmed) address a staff role; 400 on the email field when there
 * is no such account or its address is not confirmed. The message says what happened.
 */
export async function grantTeamRole(
  em: EntityManager,
  input: { email: string; role: TeamRole },
  by: TeamActor,
): Promise<string> {
  const user = await em.fork().findOne(User, { email: input.email.trim().toLowerCase() });
  if (!user)
    throw invalid(TEAM_MESSAGES.unknownAccount, [{ field: 'email', message: TEAM_MESSAGES.unknownAccount }]);
  if (!user.emailVerified) {
    throw invalid(TEAM_MESSAGES.unconfirmed, [{ field: 'email', message: TEAM_MESSAGES.unconfirmed }]);
  }
  if (user.role === input.role) return TEAM_MESSAGES.unchanged(nameOf(user), input.role);
  refuseOwnAdminRole(user, input.role, by);
  await setRole(em, user.email, input.role, { actor: auditActorOf(by.admin), ip: by.ip, at: by.at });
  return TEAM_MESSAGES.granted(nameOf(user), input.role);
}

/** A staff account by id; 404 for any other. */
async function staffMember(em: EntityManager, userId: string): Promise<User> {
  const user = await em.fork().findOne(User, userId);
  if (!user || !isStaffRole(user.role)) throw notFound(TEAM_MESSAGES.notStaff);
  return user;
}

/** Takes the staff role away: the account is a `user` again. */
export async function revokeTeamRole(em: EntityManager, userId: string, by: TeamActor): Promise<string> {
  const user = await staffMember(em, userId);
  refuseOwnAdminRole(user, 'user', by);
  await setRole(em, user.email, 'user', { actor: auditActorOf(by.admin), ip: by.ip, at: by.at });
  return TEAM_MESSAGES.revoked(nameOf(user));
}

/** A lost device: the member's second factor goes, their sessions end, the next sign-in sets a new one up. */
export async function resetTeamSecondFactor(
  em: EntityManager,
  userId: string,
  by: TeamActor,
): Promise<string> {
  const user = await staffMember(em, userId);
  await resetSecondFactor(em, user.email, { actor: auditActorOf(by.admin), ip: by.ip });
  return TEAM_MESSAGES.secondFactorReset(nameOf(user));
}

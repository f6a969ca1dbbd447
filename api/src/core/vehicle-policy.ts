import type { EntityManager } from '@mikro-orm/postgresql';
import {
  isStaffRole,
  REVIEW_MESSAGES,
  VEHICLE_MESSAGES,
  type ReviewConflictKind,
} from '@schlosstreffen/shared';
import { DomainError, forbidden, notFound, unauthenticated } from './errors.js';
import { ReviewConflict } from './model/review-assignment.entity.js';
import { User } from './model/user.entity.js';
import type { Vehicle } from './model/vehicle.entity.js';

/**
 * Who may do what with an application, in one place. Owners act on their own vehicles only, and
 * someone else's vehicle answers 404 so ids reveal nothing; reviewers and admins act on all, except
 * that nobody acts as staff on an application they own or whose owner they declared a bias towards
 * ('Befangenheit'): 403 with a German message, for admins too (another admin decides). State rules
 * (submit only drafts, …) are the services' business.
 */

/** What an owner does with their own vehicle (staff may do it with any). */
export type OwnerAction = 'read' | 'update' | 'delete' | 'changeOwnStatus';

/**
 * What only staff do: read the status history with its internal notes (`readHistory`); read the
 * internal view of the application (`readInternal`: the staff detail, the review block, the owner's
 * other applications, its mails); change its status (`setAnyStatus`: single, bulk, inviting from
 * the waitlist); submit a review (`review`); move an open review (`reassign`, admins); resend one
 * of its mails (`resendMail`); correct the record of an edition that is over (`correct`, admins).
 */
export type StaffAction =
  'readHistory' | 'readInternal' | 'setAnyStatus' | 'review' | 'reassign' | 'resendMail' | 'correct';

export type VehicleAction = OwnerAction | StaffAction;

export function isOwner(user: User, vehicle: Vehicle): boolean {
  return vehicle.user.id === user.id;
}

export function can(user: User | undefined, action: OwnerAction, vehicle: Vehicle): boolean {
  if (!user) return false;
  switch (action) {
    case 'read':
    case 'update':
    case 'delete':
    case 'changeOwnStatus':
      return isStaffRole(user.role) || isOwner(user, vehicle);
  }
}

/**
 * Throws the answer a refused owner act gets: 401 signed out, 404 for someone else's vehicle.
 */
export function authorize(
  user: User | undefined,
  action: OwnerAction,
  vehicle: Vehicle,
): asserts user is User {
  if (!user) throw unauthenticated();
  if (can(user, action, vehicle)) return;
  throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
}

/** Whether a staff member owns an application of `ownerId` or declared a bias towards that person. */
export function conflictOf(
  user: User,
  ownerId: string,
  biasedTowards: ReadonlySet<string>,
): ReviewConflictKind | null {
  if (user.id === ownerId) return 'own';
  return biasedTowards.has(ownerId) ? 'bias' : null;
}

/** The people a staff member declared a bias towards (account ids). */
export async function biasesOf(em: EntityManager, userId: string): Promise<Set<string>> {
  const rows = await em.find(ReviewConflict, { reviewerId: userId }, { fields: ['personId'] });
  return new Set(rows.map((row) => row.personId));
}

/** `conflictOf`, read from the database for one owner. */
export async function conflictWith(
  em: EntityManager,
  user: User,
  ownerId: string,
): Promise<ReviewConflictKind | null> {
  if (user.id === ownerId) return 'own';
  const biased = await em.count(ReviewConflict, { reviewerId: user.id, personId: ownerId });
  return biased > 0 ? 'bias' : null;
}

/**
 * Blind review: a staff member sees the other reviewers' scores, totals, mean and spread and
 * comments of an application only without a conflict, and then as an admin always, as a reviewer
 * once they submitted their own review of it.
 */
export function seesScores(
  user: User,
  conflict: ReviewConflictKind | null,
  submittedOwnReview: boolean,
): boolean {
  if (!isStaffRole(user.role) || conflict) return false;
  return user.role === 'admin' || submittedOwnReview;
}

/** Whether an admin other than `userId` may decide about an application of `ownerId` (neither owner nor biased). */
export async function anotherAdminDecides(
  em: EntityManager,
  userId: string,
  ownerId: string,
): Promise<boolean> {
  const admins = await em.find(User, { role: 'admin', id: { $nin: [userId, ownerId] } }, { fields: ['id'] });
  if (!admins.length) return false;
  const biased = await em.count(ReviewConflict, {
    personId: ownerId,
    reviewerId: { $in: admins.map((admin) => admin.id) },
  });
  return biased < admins.length;
}

/**
 * Throws the answer a refused staff act gets: 401 signed out, 404 for someone else's vehicle (403
 * for the owner's own, who is not staff), 403 with the German reason for a staff member who owns
 * the application or declared a bias towards its owner (for an admin, whether another admin
 * decides). Returns the acting staff member.
 */
export async function authorizeStaff(
  em: EntityManager,
  user: User | undefined,
  action: StaffAction,
  vehicle: Vehicle,
): Promise<User> {
  if (!user) throw unauthenticated();
  if (!isStaffRole(user.role)) {
    if (!isOwner(user, vehicle)) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    throw forbidden(action === 'readHistory' ? VEHICLE_MESSAGES.reviewsStaffOnly : undefined);
  }
  if ((action === 'reassign' || action === 'correct') && user.role !== 'admin') throw forbidden();
  const conflict = await conflictWith(em, user, vehicle.user.id);
  if (conflict) throw await conflictRefusal(em, user, vehicle.user.id, conflict);
  return user;
}

/** The 403 of a conflict: the reason, and for an admin whether another admin decides. */
async function conflictRefusal(
  em: EntityManager,
  user: User,
  ownerId: string,
  conflict: ReviewConflictKind,
): Promise<DomainError> {
  const otherAdmin = user.role === 'admin' ? await anotherAdminDecides(em, user.id, ownerId) : null;
  const reason = conflict === 'own' ? REVIEW_MESSAGES.conflictOwn : REVIEW_MESSAGES.conflictBias;
  const decides =
    otherAdmin === null
      ? ''
      : ` ${otherAdmin ? REVIEW_MESSAGES.conflictOtherAdmin : REVIEW_MESSAGES.conflictNoOtherAdmin}`;
  return new DomainError('forbidden', `${reason}${decides}`, { details: { conflict, otherAdmin } });
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  isStaffRole,
  PRIVACY_MESSAGES,
  REVIEW_MESSAGES,
  VEHICLE_MESSAGES,
  formatScore,
  weightedScore,
  type ReviewConflictKind,
  type ReviewSettingsInput,
  type ReviewSubmission,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type {
  MyReviews,
  ReviewBalance,
  ReviewConflictList,
  ReviewLoad,
  ReviewSettings,
  VehicleReview,
} from '@schlosstreffen/shared/api';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { Edition } from '../model/edition.entity.js';
import { assertEditionOpenForChanges, isEditionOver } from '../editions/frozen.js';
import { REVIEW_STATES } from '../model/review-facts.js';
import {
  ReviewAssignment,
  ReviewCategory,
  ReviewConflict,
  ReviewExclusion,
} from '../model/review-assignment.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { recordReview } from '../status-log/status-log.js';
import { authorizeStaff, biasesOf, conflictOf, seesScores } from '../vehicle-policy.js';
import { planBalance } from './balance.js';
import {
  allConflicts,
  anyReviewSubmitted,
  applicationsInReview,
  conflictsOf,
  deleteOpenAssignments,
  editionAssignments,
  editionExclusions,
  editionsInReview,
  editionsWithOpenReviews,
  excludeOpenReviewsOf,
  insertAssignments,
  loadPerReviewer,
  lockEditionReviews,
  moveAssignments,
  myAssignments,
  ownersOf,
  reassignCandidates,
  reviewCoverage,
  reviewerIds,
  reviewsOfVehicle,
  staffIds,
  submittedReviewsOf,
  understaffedApplications,
} from './reviews.queries.js';
import type { PendingAudit } from '../pending-audit.js';

const inReview = (status: VehicleStatus) => (REVIEW_STATES as readonly string[]).includes(status);

/** Whether a status change moves an application into or out of review (so its reviewers change). */
export const changesReview = (from: VehicleStatus | null, to: VehicleStatus): boolean =>
  (from !== null && inReview(from)) !== inReview(to);

/**
 * Brings the edition's assignments in line with the rule (see `planBalance`), in the caller's
 * transaction: every application in review has its reviewers, open loads are even.
 */
export async function balanceEdition(em: EntityManager, editionId: string, at: Date): Promise<ReviewBalance> {
  // An edition that is over keeps its reviews as they were, open ones too.
  if (await isEditionOver(em, editionId, at)) return { added: 0, removed: 0, moved: 0 };
  await lockEditionReviews(em, editionId);
  const edition = await em.findOneOrFail(Edition, editionId);
  const reviewers = await reviewerIds(em);
  const staff = await staffIds(em);
  const applications = await applicationsInReview(em, editionId);
  const conflicts = await allConflicts(em);
  const exclusions = await editionExclusions(em, editionId);
  const assignments = await editionAssignments(em, editionId);
  const biased = new Map<string, Set<string>>();
  for (const c of conflicts) {
    const set = biased.get(c.reviewer_id) ?? new Set<string>();
    set.add(c.person_id);
    biased.set(c.reviewer_id, set);
  }
  const excluded = new Map<string, Set<string>>();
  for (const x of exclusions) {
    const set = excluded.get(x.vehicle_id) ?? new Set<string>();
    set.add(x.reviewer_id);
    excluded.set(x.vehicle_id, set);
  }
  const plan = planBalance({
    perApplication: edition.reviewersPerApplication,
    reviewers: reviewers.map((r) => r.id),
    staff: new Set(staff.map((s) => s.id)),
    applications: applications.map((a) => ({ id: a.id, ownerId: a.owner_id })),
    conflicts: biased,
    excluded,
    assignments: assignments.map((a) => ({
      id: a.id,
      vehicleId: a.vehicle_id,
      reviewerId: a.reviewer_id,
      submitted: a.submitted,
      manual: a.assigned_by !== null,
    })),
  });
  // Removed first, then moved, then added: a pair (application, reviewer) is never held twice.
  await deleteOpenAssignments(em, plan.remove);
  await moveAssignments(em, plan.move, at);
  await insertAssignments(em, editionId, plan.add, at);
  return { added: plan.add.length, removed: plan.remove.length, moved: plan.move.length };
}

/** Balances every edition with applications in review: a reviewer joined, left or declared a bias. */
export async function balanceAllEditions(em: EntityManager, at: Date): Promise<ReviewBalance> {
  const sum: ReviewBalance = { added: 0, removed: 0, moved: 0 };
  const editions = await editionsInReview(em);
  // Also editions whose open reviews must go (a reviewer left): those with any open assignment.
  const open = await editionsWithOpenReviews(em);
  const ids = new Set([...editions, ...open].map((e) => e.edition_id));
  for (const id of [...ids].sort()) {
    const result = await balanceEdition(em, id, at);
    sum.added += result.added;
    sum.removed += result.removed;
    sum.moved += result.moved;
  }
  return sum;
}

async function categoriesOf(em: EntityManager, editionId: string) {
  return em.find(ReviewCategory, { editionId }, { orderBy: { position: 'asc' } });
}

const categoryView = (c: ReviewCategory) => ({ id: c.id, name: c.name, weight: c.weight });

/** The scores as one line of the status log: 'Umbauqualität 8 · Originalität 7 → 7,67'. */
function reviewLine(categories: ReviewCategory[], scores: Record<string, number>, total: number): string {
  const parts = categories.map((c) => `${c.name} ${scores[c.id]}`);
  return `Bewertung: ${parts.join(' · ')} → ${formatScore(total)}`;
}

/** The application locked, and its edition's reviews: no balancing moves a review meanwhile. */
async function lockForReview(tx: EntityManager, vehicleId: string): Promise<Vehicle> {
  const vehicle = await tx.findOne(Vehicle, vehicleId, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
  await lockEditionReviews(tx, vehicle.edition.id);
  return vehicle;
}

/**
 * An assigned reviewer submits their review: one score per category, once. It is kept with the
 * assignment and appended to the status log as a row of its own.
 */
export async function submitReview(
  em: EntityManager,
  user: User,
  vehicleId: string,
  input: ReviewSubmission,
  at: Date,
): Promise<void> {
  await em.transactional(async (tx) => {
    const vehicle = await lockForReview(tx, vehicleId);
    await authorizeStaff(tx, user, 'review', vehicle);
    await assertEditionOpenForChanges(tx, vehicle.edition.id, at, 'staff');
    const assignment = await tx.findOne(ReviewAssignment, { vehicleId, reviewerId: user.id });
    if (!assignment) throw forbidden(REVIEW_MESSAGES.notAssigned);
    if (assignment.submittedAt) throw conflict(REVIEW_MESSAGES.alreadySubmitted);
    if (!inReview(vehicle.status)) throw conflict(REVIEW_MESSAGES.notInReview);
    const categories = await categoriesOf(tx, vehicle.edition.id);
    const known = new Set(categories.map((c) => c.id));
    if (Object.keys(input.scores).some((id) => !known.has(id)))
      throw invalid(REVIEW_MESSAGES.unknownCategory);
    const missing = categories.find((c) => input.scores[c.id] === undefined);
    if (missing) throw invalid(REVIEW_MESSAGES.scoreMissing(missing.name));
    const total = weightedScore(categories, input.scores)!;
    assignment.scores = { ...input.scores };
    assignment.total = total;
    assignment.comment = input.comment || null;
    assignment.submittedAt = at;
    const line = reviewLine(categories, input.scores, total);
    recordReview(
      tx,
      vehicle,
      user,
      assignment.comment ? `${line}\n${assignment.comment}` : line,
      Math.round(total),
    );
  });
}

/**
 * The review part of the detail dialog. A reviewer who has not submitted their own review sees no
 * other score, comment or mean (blind review, `seesScores`); admins see the staff an open review
 * may move to. Nobody reads it of an application they own or whose owner they are biased towards.
 */
export async function vehicleReview(
  em: EntityManager,
  user: User,
  vehicleId: string,
): Promise<VehicleReview> {
  const vehicle = await em.findOne(Vehicle, vehicleId);
  if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
  await authorizeStaff(em, user, 'readInternal', vehicle);
  const editionId = vehicle.edition.id;
  const [categories, rows] = await Promise.all([
    categoriesOf(em, editionId),
    reviewsOfVehicle(em, vehicleId),
  ]);
  const mineRow = rows.find((r) => r.reviewer_id === user.id);
  const hidden = !seesScores(user, null, mineRow !== undefined && mineRow.submitted_at !== null);
  const totals = rows.filter((r) => r.submitted_at !== null).map((r) => Number(r.total));
  const candidates =
    user.role === 'admin' && inReview(vehicle.status)
      ? await reassignCandidates(em, vehicleId, editionId)
      : [];
  return {
    vehicleId,
    status: vehicle.status,
    categories: categories.map(categoryView),
    reviews: rows.map((r) => {
      const visible = r.submitted_at !== null && (!hidden || r.reviewer_id === user.id);
      return {
        reviewerId: r.reviewer_id,
        reviewerName: r.reviewer_name ?? PRIVACY_MESSAGES.deletedAccount,
        mine: r.reviewer_id === user.id,
        assignedAt: new Date(r.assigned_at).toISOString(),
        submittedAt: r.submitted_at ? new Date(r.submitted_at).toISOString() : null,
        scores: visible ? r.scores : null,
        total: visible ? Number(r.total) : null,
        comment: visible ? r.comment : null,
      };
    }),
    score: {
      mean: hidden || !totals.length ? null : totals.reduce((a, b) => a + b, 0) / totals.length,
      min: hidden || !totals.length ? null : Math.min(...totals),
      max: hidden || !totals.length ? null : Math.max(...totals),
      submitted: totals.length,
      assigned: rows.length,
    },
    hidden,
    mine: mineRow ? { submitted: mineRow.submitted_at !== null } : null,
    candidates: candidates.map((c) => ({ id: c.id, name: c.name, open: Number(c.open) })),
  };
}

/** Of these applications, those `user` owns or whose owner they declared a bias towards, and which. */
export async function conflictsOn(
  em: EntityManager,
  user: User,
  vehicleIds: readonly string[],
): Promise<Map<string, ReviewConflictKind>> {
  if (!vehicleIds.length) return new Map();
  const owners = await ownersOf(em, vehicleIds);
  const biases = await biasesOf(em, user.id);
  return new Map(
    owners.flatMap((o) => {
      const conflict = conflictOf(user, o.owner_id, biases);
      return conflict ? [[o.id, conflict] as const] : [];
    }),
  );
}

/**
 * Of these applications, those whose scores (the others' reviews, the mean, scores given with a
 * status change) `user` sees: blind review as `seesScores` states it, for lists and exports.
 */
export async function scoresVisibleTo(
  em: EntityManager,
  user: User,
  vehicleIds: readonly string[],
): Promise<Set<string>> {
  if (!isStaffRole(user.role) || !vehicleIds.length) return new Set();
  const owners = await ownersOf(em, vehicleIds);
  const biases = await biasesOf(em, user.id);
  const submitted =
    user.role === 'admin'
      ? new Set<string>()
      : new Set((await submittedReviewsOf(em, user.id, vehicleIds)).map((r) => r.vehicle_id));
  return new Set(
    owners
      .filter((o) => seesScores(user, conflictOf(user, o.owner_id, biases), submitted.has(o.id)))
      .map((o) => o.id),
  );
}

/** 'Meine Prüfungen': the reviewer's open reviews (oldest first) and the submitted ones. */
export async function myReviews(em: EntityManager, user: User, editionId: string): Promise<MyReviews> {
  const rows = await myAssignments(em, user.id, editionId);
  const items = rows.map((r) => ({
    vehicleId: r.vehicle_id,
    title: r.title,
    ownerName: r.owner_name,
    status: r.status as VehicleStatus,
    assignedAt: new Date(r.assigned_at).toISOString(),
    submittedAt: r.submitted_at ? new Date(r.submitted_at).toISOString() : null,
    total: r.total === null ? null : Number(r.total),
  }));
  const open = items.filter((i) => i.submittedAt === null);
  return { open, done: items.filter((i) => i.submittedAt !== null), next: open[0]?.vehicleId ?? null };
}

export async function reviewSettings(em: EntityManager, editionId: string): Promise<ReviewSettings> {
  const edition = await em.findOneOrFail(Edition, editionId);
  const [categories, fixed] = await Promise.all([
    categoriesOf(em, editionId),
    anyReviewSubmitted(em, editionId),
  ]);
  return {
    reviewersPerApplication: edition.reviewersPerApplication,
    categories: categories.map(categoryView),
    categoriesFixed: fixed,
  };
}

/**
 * Sets an edition's reviewers per application and its categories. Once a review was submitted the
 * categories stay (rename and reweigh only), and every submitted review's weighted score follows
 * the new weights. The assignments follow the new number.
 */
export async function updateReviewSettings(
  em: EntityManager,
  editionId: string,
  input: ReviewSettingsInput,
  at: Date,
  audit?: PendingAudit,
): Promise<ReviewSettings> {
  await em.transactional(async (tx) => {
    const edition = await tx.findOneOrFail(Edition, editionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // The weights make the submitted reviews' scores: an edition that is over keeps them.
    await assertEditionOpenForChanges(tx, editionId, at, 'staff');
    await lockEditionReviews(tx, editionId);
    const existing = await categoriesOf(tx, editionId);
    const byId = new Map(existing.map((c) => [c.id, c]));
    if (input.categories.some((c) => c.id && !byId.has(c.id))) throw invalid(REVIEW_MESSAGES.unknownCategory);
    const kept = new Set(input.categories.flatMap((c) => (c.id ? [c.id] : [])));
    const fixed = await anyReviewSubmitted(tx, editionId);
    if (fixed && (kept.size !== existing.length || input.categories.some((c) => !c.id)))
      throw conflict(REVIEW_MESSAGES.categoriesFixed);
    for (const gone of existing.filter((c) => !kept.has(c.id))) tx.remove(gone);
    // Names are unique per edition: park the kept ones under temporary names before renaming.
    for (const c of existing.filter((c) => kept.has(c.id))) c.name = `~${c.id}`.slice(0, 60);
    await tx.flush();
    const categories = input.categories.map((c, position) => {
      const category = c.id
        ? byId.get(c.id)!
        : tx.create(ReviewCategory, { editionId, name: c.name, weight: c.weight, position });
      category.name = c.name;
      category.weight = c.weight;
      category.position = position;
      return category;
    });
    edition.reviewersPerApplication = input.reviewersPerApplication;
    await tx.flush();
    if (fixed) {
      const submitted = await tx.find(ReviewAssignment, { editionId, submittedAt: { $ne: null } });
      for (const review of submitted) review.total = weightedScore(categories, review.scores ?? {}) ?? null;
    }
    await tx.flush();
    await balanceEdition(tx, editionId, at);
    audit?.record(tx);
  });
  return reviewSettings(em, editionId);
}

/** The understaffed applications the load view lists ('unterbesetzt'). */
const UNDERSTAFFED_LISTED = 200;

export async function reviewLoad(em: EntityManager, editionId: string): Promise<ReviewLoad> {
  const edition = await em.findOneOrFail(Edition, editionId);
  const per = edition.reviewersPerApplication;
  const [rows, coverage, understaffed] = await Promise.all([
    loadPerReviewer(em, editionId),
    reviewCoverage(em, editionId, per),
    understaffedApplications(em, editionId, per, UNDERSTAFFED_LISTED),
  ]);
  return {
    reviewers: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      open: Number(r.open),
      submitted: Number(r.submitted),
      conflicts: Number(r.conflicts),
    })),
    ...coverage,
    understaffedApplications: understaffed.map((a) => ({
      vehicleId: a.id,
      title: a.title,
      ownerName: a.owner_name,
      status: a.status as VehicleStatus,
      assigned: Number(a.n),
    })),
    perApplication: per,
  };
}

/** An admin moves an open review of an application from one person to another. */
export async function reassignReview(
  em: EntityManager,
  admin: User,
  vehicleId: string,
  move: { from: string; to: string },
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.transactional(async (tx) => {
    const vehicle = await lockForReview(tx, vehicleId);
    await authorizeStaff(tx, admin, 'reassign', vehicle);
    await assertEditionOpenForChanges(tx, vehicle.edition.id, at, 'staff');
    if (!inReview(vehicle.status)) throw conflict(REVIEW_MESSAGES.notInReview);
    const assignment = await tx.findOne(ReviewAssignment, { vehicleId, reviewerId: move.from });
    if (!assignment) throw conflict(REVIEW_MESSAGES.assignmentGone);
    if (assignment.submittedAt) throw conflict(REVIEW_MESSAGES.reassignDone);
    const to = await tx.findOne(User, move.to);
    if (!to || (to.role !== 'reviewer' && to.role !== 'admin'))
      throw invalid(REVIEW_MESSAGES.reassignNotReviewer);
    if (to.id === vehicle.user.id) throw invalid(REVIEW_MESSAGES.reassignOwner);
    if (await tx.findOne(ReviewConflict, { reviewerId: to.id, personId: vehicle.user.id }))
      throw invalid(REVIEW_MESSAGES.reassignConflict);
    if (await tx.findOne(ReviewExclusion, { vehicleId, reviewerId: to.id }))
      throw invalid(REVIEW_MESSAGES.reassignExcluded);
    if (await tx.findOne(ReviewAssignment, { vehicleId, reviewerId: to.id }))
      throw conflict(REVIEW_MESSAGES.reassignTaken);
    await moveAssignments(tx, [{ id: assignment.id, to: to.id }], at, admin.id);
    await balanceEdition(tx, vehicle.edition.id, at);
    audit?.record(tx);
  });
}

export async function listConflicts(em: EntityManager, user: User): Promise<ReviewConflictList> {
  const rows = await conflictsOf(em, user.id);
  return {
    people: rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      since: new Date(r.created_at).toISOString(),
    })),
  };
}

/**
 * A reviewer declares bias towards a person (by their confirmed address): their open reviews of that
 * person's applications go to others at once, for good (recorded as exclusions).
 */
export async function declareConflict(
  em: EntityManager,
  user: User,
  email: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.transactional(async (tx) => {
    const person = await tx.findOne(User, { email: email.trim().toLowerCase() });
    if (!person || !person.emailVerified) throw invalid(REVIEW_MESSAGES.conflictUnknown);
    if (person.id === user.id) throw invalid(REVIEW_MESSAGES.conflictSelf);
    if (await tx.findOne(ReviewConflict, { reviewerId: user.id, personId: person.id }))
      throw conflict(REVIEW_MESSAGES.conflictExists);
    tx.create(ReviewConflict, { reviewerId: user.id, personId: person.id });
    await tx.flush();
    await excludeOpenReviewsOf(tx, user.id, person.id);
    await balanceAllEditions(tx, at);
    audit?.record(tx);
  });
}

/**
 * Takes a person off the reviewer's list; the balancing may then give them that person's applications
 * again, but never one whose review the bias ended.
 */
export async function withdrawConflict(
  em: EntityManager,
  user: User,
  id: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.transactional(async (tx) => {
    const removed = await tx.nativeDelete(ReviewConflict, { id, reviewerId: user.id });
    if (!removed) throw notFound();
    await balanceAllEditions(tx, at);
    audit?.record(tx);
  });
}

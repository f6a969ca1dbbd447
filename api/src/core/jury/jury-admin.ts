/**
 * The organizers' side of the jury: classes with their scorecards, the judges of an edition and
 * their classes, invitations by mail. Every change is refused once the edition's results are
 * published or its jury deadline (a day after the meeting's end) has passed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  JURY_MESSAGES,
  mailboxOf,
  PRIVACY_MESSAGES,
  type JuryClassInput,
  type JuryCriterion,
} from '@schlosstreffen/shared';
import type { JuryAdminView, JuryClassAdminView, JuryJudgeAdded } from '@schlosstreffen/shared/api';
import { conflict, invalid, notFound } from '../errors.js';
import { editionOfYear } from '../editions/editions.js';
import type { Edition } from '../model/edition.entity.js';
import { Jury, JuryClass, JuryClassJudge, JuryInvite, JuryJudge } from '../model/jury.entity.js';
import { User } from '../model/user.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { seal } from '../crypto/seal.js';
import type { PendingAudit } from '../pending-audit.js';
import { objectPathOf } from '../storage/objects.js';
import { classResultOf, isJuryFrozen, juryDeadlineOf, juryField, progressOf } from './jury-field.js';
import {
  classesNamed,
  classesWithScores,
  classHasScores,
  insertJudge,
  nextClassPosition,
  recusalsOf,
} from './jury.queries.js';

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** The name the certificates' print file is saved under. */
export const juryCertificatesName = (year: number): string => `Urkunden-Jury-${year}.pdf`;

/** Refuses a change once the results are published or the jury's deadline passed. */
export async function assertJuryOpen(em: EntityManager, edition: Edition, at: Date): Promise<Jury | null> {
  if (isJuryFrozen(edition, at)) throw conflict(JURY_MESSAGES.frozen(edition.name));
  const jury = await em.findOne(Jury, { edition: edition.id });
  if (jury?.publishedAt) throw conflict(JURY_MESSAGES.publishedLocked);
  return jury;
}

/** A criterion's id: kept when given, else a new one. */
const criterionId = () => `k-${randomBytes(4).toString('hex')}`;

function criteriaOf(input: JuryClassInput['criteria'], before: JuryCriterion[] = []): JuryCriterion[] {
  const known = new Set(before.map((c) => c.id));
  return input.map((c) => ({
    id: c.id && known.has(c.id) ? c.id : criterionId(),
    name: c.name,
    weight: c.weight,
    max: c.max,
  }));
}

/** Whether two scorecards score the same: the same criteria (by id) with the same weights and scales. */
const sameScoring = (a: JuryCriterion[], b: JuryCriterion[]) =>
  a.length === b.length &&
  a.every((c, i) => c.id === b[i]!.id && c.weight === b[i]!.weight && c.max === b[i]!.max);

async function assertJudges(em: EntityManager, edition: Edition, input: JuryClassInput): Promise<void> {
  if (input.headJudgeId && !input.judgeIds.includes(input.headJudgeId))
    throw invalid(JURY_MESSAGES.headJudgeNotJudge);
  if (input.judgeIds.length === 0) return;
  const judges = await em.find(JuryJudge, { edition: edition.id, user: { $in: input.judgeIds } });
  if (judges.length !== new Set(input.judgeIds).size) throw invalid(JURY_MESSAGES.notJudge);
}

async function setClassJudges(em: EntityManager, juryClass: JuryClass, judgeIds: string[]): Promise<void> {
  await em.nativeDelete(JuryClassJudge, { juryClass: juryClass.id });
  for (const userId of new Set(judgeIds)) {
    em.persist(em.create(JuryClassJudge, { juryClass: juryClass.id, user: userId }));
  }
}

async function assertNameFree(em: EntityManager, edition: Edition, name: string, except?: string) {
  const ids = await classesNamed(em, edition.id, name);
  if (ids.some((id) => id !== except)) throw conflict(JURY_MESSAGES.nameTaken);
}

export async function createJuryClass(
  em: EntityManager,
  year: number,
  input: JuryClassInput,
  at: Date,
  audit?: PendingAudit,
): Promise<string> {
  return em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    await assertJuryOpen(tx, edition, at);
    await assertNameFree(tx, edition, input.name);
    await assertJudges(tx, edition, input);
    const position = await nextClassPosition(tx, edition.id);
    const juryClass = tx.create(JuryClass, {
      edition: edition.id,
      name: input.name,
      position,
      scope: input.scope,
      criteria: criteriaOf(input.criteria),
      places: input.places,
      headJudge: input.headJudgeId,
    });
    await tx.flush();
    await setClassJudges(tx, juryClass, input.judgeIds);
    audit?.record(tx, { target: year, details: { classId: juryClass.id, name: input.name } });
    await tx.flush();
    return juryClass.id;
  });
}

async function classOfYear(
  em: EntityManager,
  year: number,
  classId: string,
): Promise<{ edition: Edition; juryClass: JuryClass }> {
  const edition = await editionOfYear(em, year);
  const juryClass = await em.findOne(JuryClass, { id: classId, edition: edition.id });
  if (!juryClass) throw notFound(JURY_MESSAGES.unknownClass);
  return { edition, juryClass };
}

export async function updateJuryClass(
  em: EntityManager,
  year: number,
  classId: string,
  input: JuryClassInput,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const { edition, juryClass } = await classOfYear(tx, year, classId);
    await assertJuryOpen(tx, edition, at);
    if (juryClass.closedAt) throw conflict(JURY_MESSAGES.classClosed(juryClass.name));
    await assertNameFree(tx, edition, input.name, juryClass.id);
    await assertJudges(tx, edition, input);
    const criteria = criteriaOf(input.criteria, juryClass.criteria);
    if (!sameScoring(criteria, juryClass.criteria) && (await classHasScores(tx, juryClass.id)))
      throw conflict(JURY_MESSAGES.criteriaLocked);
    juryClass.name = input.name;
    juryClass.scope = input.scope;
    juryClass.criteria = criteria;
    juryClass.places = input.places;
    juryClass.headJudge = input.headJudgeId ? tx.getReference(User, input.headJudgeId) : null;
    await setClassJudges(tx, juryClass, input.judgeIds);
    audit?.record(tx, { target: year, details: { classId } });
    await tx.flush();
  });
}

export async function deleteJuryClass(
  em: EntityManager,
  year: number,
  classId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const { edition, juryClass } = await classOfYear(tx, year, classId);
    await assertJuryOpen(tx, edition, at);
    if (await classHasScores(tx, juryClass.id)) throw conflict(JURY_MESSAGES.classHasScores);
    tx.remove(juryClass);
    audit?.record(tx, { target: year, details: { classId, name: juryClass.name } });
    await tx.flush();
  });
}

/** Makes the account a judge of the edition and of the given classes (all of them when none are named). */
export async function makeJudge(
  em: EntityManager,
  edition: Edition,
  userId: string,
  classIds?: string[],
): Promise<void> {
  const classes = await em.find(JuryClass, { edition: edition.id });
  const named = classIds ? classes.filter((c) => classIds.includes(c.id)) : classes;
  if (classIds && named.length !== new Set(classIds).size) throw invalid(JURY_MESSAGES.unknownClass);
  // A closed class keeps the judges its ranking was made with (as when an admin changes classes).
  const chosen = named.filter((c) => !c.closedAt);
  await insertJudge(
    em,
    edition.id,
    userId,
    chosen.map((c) => c.id),
  );
}

/**
 * Adds a judge by address: an account whose confirmed address it is becomes a judge at once;
 * without one, with `invite`, a link goes to the address (nothing is linked to a person by an
 * address they have not confirmed: the link works only for an account that confirmed it).
 */
export async function addJudge(
  em: EntityManager,
  year: number,
  input: { email: string; classIds?: string[]; invite: boolean },
  at: Date,
  options: { publicUrl: string; secret: string; invitedBy: string },
  audit?: PendingAudit,
): Promise<JuryJudgeAdded> {
  return em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    await assertJuryOpen(tx, edition, at);
    const email = input.email.toLowerCase();
    const user = await tx.findOne(User, { email, emailVerified: true });
    if (user) {
      await makeJudge(tx, edition, user.id, input.classIds);
      audit?.record(tx, { target: year, details: { userId: user.id } });
      await tx.flush();
      return { result: 'added', message: JURY_MESSAGES.judgeAdded };
    }
    if (!input.invite) throw notFound(JURY_MESSAGES.judgeUnknownAccount);
    const classes = await tx.find(JuryClass, { edition: edition.id });
    const classIds = input.classIds ?? classes.map((c) => c.id);
    if (!classIds.every((id) => classes.some((c) => c.id === id))) throw invalid(JURY_MESSAGES.unknownClass);
    const token = randomBytes(24).toString('base64url');
    const invite = tx.create(JuryInvite, {
      edition: edition.id,
      email,
      tokenHash: sha256Hex(token),
      classIds,
      invitedBy: options.invitedBy,
    });
    enqueue(tx, 'email.send', {
      template: 'jury-invitation',
      to: email,
      props: { editionName: edition.name },
      // The link's token is stored sealed, as every mailed link is.
      sealed: seal(options.secret, { acceptUrl: `${options.publicUrl}/jury/einladung?token=${token}` }),
      editionId: edition.id,
    });
    audit?.record(tx, { target: year, details: { inviteId: invite.id, invited: true } });
    await tx.flush();
    return { result: 'invited', message: JURY_MESSAGES.judgeInvited };
  });
}

/**
 * Accepts an invitation with the signed-in account: only one whose confirmed address the invitation
 * was sent to. The invitation goes; the account judges the edition's chosen classes.
 */
export async function acceptJuryInvite(
  em: EntityManager,
  token: string,
  userId: string,
  at: Date,
): Promise<{ editionName: string } | 'invalid' | 'other_address'> {
  return em.fork().transactional(async (tx) => {
    const invite = await tx.findOne(JuryInvite, { tokenHash: sha256Hex(token) }, { populate: ['edition'] });
    if (!invite) return 'invalid';
    const edition = invite.edition as unknown as Edition;
    if (isJuryFrozen(edition, at)) return 'invalid';
    const user = await tx.findOneOrFail(User, userId);
    if (!user.emailVerified || mailboxOf(user.email) !== mailboxOf(invite.email)) return 'other_address';
    const classes = await tx.find(JuryClass, { edition: edition.id, id: { $in: invite.classIds } });
    await makeJudge(
      tx,
      edition,
      user.id,
      classes.map((c) => c.id),
    );
    tx.remove(invite);
    await tx.flush();
    return { editionName: edition.name };
  });
}

export async function setJudgeClasses(
  em: EntityManager,
  year: number,
  userId: string,
  classIds: string[],
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    await assertJuryOpen(tx, edition, at);
    const judge = await tx.findOne(JuryJudge, { edition: edition.id, user: userId });
    if (!judge) throw notFound(JURY_MESSAGES.notJudge);
    const classes = await tx.find(JuryClass, { edition: edition.id });
    if (!classIds.every((id) => classes.some((c) => c.id === id))) throw invalid(JURY_MESSAGES.unknownClass);
    const open = classes.filter((c) => !c.closedAt).map((c) => c.id);
    // A closed class keeps its judges (its ranking was made with them).
    await tx.nativeDelete(JuryClassJudge, { user: userId, juryClass: { $in: open } });
    for (const id of classIds.filter((id) => open.includes(id)))
      tx.persist(tx.create(JuryClassJudge, { juryClass: id, user: userId }));
    for (const juryClass of classes)
      if (!classIds.includes(juryClass.id) && juryClass.headJudge?.id === userId && !juryClass.closedAt)
        juryClass.headJudge = null;
    audit?.record(tx, { target: year, details: { userId, classes: classIds.length } });
    await tx.flush();
  });
}

export async function removeJudge(
  em: EntityManager,
  year: number,
  userId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    await assertJuryOpen(tx, edition, at);
    const judge = await tx.findOne(JuryJudge, { edition: edition.id, user: userId });
    if (!judge) throw notFound(JURY_MESSAGES.notJudge);
    const classes = await tx.find(JuryClass, { edition: edition.id, closedAt: null });
    await tx.nativeDelete(JuryClassJudge, { user: userId, juryClass: { $in: classes.map((c) => c.id) } });
    for (const juryClass of classes) if (juryClass.headJudge?.id === userId) juryClass.headJudge = null;
    tx.remove(judge);
    audit?.record(tx, { target: year, details: { userId } });
    await tx.flush();
  });
}

export async function withdrawInvite(
  em: EntityManager,
  year: number,
  inviteId: string,
  audit?: PendingAudit,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const edition = await editionOfYear(tx, year);
    const invite = await tx.findOne(JuryInvite, { id: inviteId, edition: edition.id });
    if (!invite) throw notFound();
    tx.remove(invite);
    audit?.record(tx, { target: year, details: { inviteId } });
    await tx.flush();
  });
}

/** The admin's view of an edition's jury. */
export async function juryAdminView(em: EntityManager, year: number, at: Date): Promise<JuryAdminView> {
  const edition = await editionOfYear(em, year);
  const jury = await em.findOne(Jury, { edition: edition.id });
  const { classes, cars, judges } = await juryField(em, edition);
  const pairs = new Map<string, string[]>();
  for (const field of classes)
    for (const judgeId of field.judgeIds)
      pairs.set(judgeId, [...(pairs.get(judgeId) ?? []), field.juryClass.id]);
  const hasScores = await classesWithScores(em, edition.id);
  const classViews = classes.map((field): JuryClassAdminView => {
    const { juryClass } = field;
    const progress = progressOf(field, judges);
    return {
      id: juryClass.id,
      name: juryClass.name,
      position: juryClass.position,
      scope: juryClass.scope,
      criteria: juryClass.criteria,
      places: juryClass.places,
      judgeIds: field.judgeIds,
      headJudgeId: juryClass.headJudge?.id ?? null,
      state: juryClass.closedAt ? 'closed' : 'open',
      cars: field.cars.length,
      cardsExpected: progress.expected,
      cardsDone: progress.done,
      missing: progress.missing,
      hasScores: hasScores.has(juryClass.id),
      result: classResultOf(juryClass, judges),
    };
  });
  const invites = await em.find(JuryInvite, { edition: edition.id }, { orderBy: { createdAt: 'asc' } });
  const recusals = await recusalsOf(em, edition.id);
  const carOf = new Map(cars.map((car) => [car.vehicle_id, car]));
  const className = new Map(classes.map((f) => [f.juryClass.id, f.juryClass.name]));
  const judgeRows = [...judges.values()];
  const deadline = juryDeadlineOf(edition);
  const frozen = isJuryFrozen(edition, at);
  return {
    year,
    editionName: edition.name,
    closesBy: deadline.toISOString(),
    frozen,
    publishedAt: jury?.publishedAt?.toISOString() ?? null,
    classes: classViews,
    judges: judgeRows.map((judge) => ({
      userId: judge.id,
      name: judge.name,
      email: judge.email,
      classIds: pairs.get(judge.id) ?? [],
    })),
    invites: invites.map((invite) => ({
      id: invite.id,
      email: invite.email,
      classIds: invite.classIds,
      invitedAt: invite.createdAt.toISOString(),
    })),
    recusals: recusals.flatMap((row) => {
      const car = carOf.get(row.vehicle_id);
      return car
        ? [
            {
              judgeName: judges.get(row.judge_id)?.name ?? PRIVACY_MESSAGES.deletedAccount,
              startNumber: car.start_number,
              car: car.title,
              declaredAt: new Date(row.entered_at).toISOString(),
            },
          ]
        : [];
    }),
    corrections: (jury?.corrections ?? []).map((c) => ({ ...c, className: className.get(c.classId) ?? '' })),
    zones: edition.parkingZones.map((zone) => zone.name),
    categories: [...new Set(cars.flatMap((car) => car.tuning_categories ?? []))].sort((a, b) =>
      a.localeCompare(b, 'de'),
    ),
    certificatesUrl: jury?.certificatesKey
      ? `${objectPathOf(jury.certificatesKey)}?download=${encodeURIComponent(juryCertificatesName(year))}`
      : null,
  };
}

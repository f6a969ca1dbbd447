/**
 * Judging at the car: a judge's classes and cars as the device keeps them, and the values it sends
 * when the network allows. Like the gate's scans: each entry carries its own id and the moment it
 * was entered (a device clock ahead of the server's counts as now); per judge, car and criterion the
 * entry entered last counts, so resending, reordering or syncing from two devices ends the same.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { JURY_CLOCK_SKEW_MS, JURY_MESSAGES, type JuryEntryInput } from '@schlosstreffen/shared';
import type {
  JuryClassProgress,
  JuryEntryState,
  JuryJudgeView,
  JuryScoreView,
  JurySyncResult,
} from '@schlosstreffen/shared/api';
import { forbidden, notFound } from '../errors.js';
import { currentEdition } from '../editions/editions.js';
import type { Edition } from '../model/edition.entity.js';
import { Jury, JuryClass } from '../model/jury.entity.js';
import { User } from '../model/user.entity.js';
import { juryDeadlineOf, juryField, progressOf, scores, type ClassField } from './jury-field.js';
import {
  classesOfJudge,
  insertRecusals,
  isJudgeOf,
  juryScores,
  lockClasses,
  upsertScores,
} from './jury.queries.js';

/** The current edition, if the account judges it; 403 otherwise. */
async function judgedEdition(em: EntityManager, userId: string, at: Date): Promise<Edition> {
  const edition = await currentEdition(em, at);
  if (!(await isJudgeOf(em, edition.id, userId))) throw forbidden(JURY_MESSAGES.notJudge);
  return edition;
}

/** Whether the account judges the current edition (the 'Jury' link, the car page's 'Bewerten'). */
export async function judgesCurrentEdition(em: EntityManager, userId: string, at: Date): Promise<boolean> {
  const edition = await currentEdition(em, at);
  return isJudgeOf(em, edition.id, userId);
}

function scoreViews(
  fields: ClassField[],
  rows: { jury_class_id: string; vehicle_id: string; criterion: string; value: number; entered_at: Date }[],
  startNumberOf: Map<string, number>,
): JuryScoreView[] {
  const known = new Set(fields.map((f) => f.juryClass.id));
  return rows.flatMap((row) => {
    const startNumber = startNumberOf.get(row.vehicle_id);
    return known.has(row.jury_class_id) && startNumber !== undefined
      ? [
          {
            classId: row.jury_class_id,
            startNumber,
            criterion: row.criterion,
            value: row.value,
            enteredAt: new Date(row.entered_at).toISOString(),
          },
        ]
      : [];
  });
}

/** GET /api/jury: the judge's classes of the current edition, their cars and the judge's own values. */
export async function judgeView(em: EntityManager, userId: string, at: Date): Promise<JuryJudgeView> {
  const edition = await judgedEdition(em, userId, at);
  const user = await em.findOneOrFail(User, userId);
  const { classes, cars } = await juryField(em, edition);
  const mine = classes.filter((field) => field.judgeIds.includes(userId));
  const excluded = mine[0]?.excluded.get(userId) ?? new Map<string, 'own' | 'biased'>();
  const inMine = new Map<string, string[]>();
  for (const field of mine)
    for (const car of field.cars)
      inMine.set(car.vehicle_id, [...(inMine.get(car.vehicle_id) ?? []), field.juryClass.id]);
  const listed = cars.filter((car) => inMine.has(car.vehicle_id));
  const startNumberOf = new Map(cars.map((car) => [car.vehicle_id, car.start_number]));
  const own = await juryScores(em, { classIds: mine.map((f) => f.juryClass.id), judgeId: userId });
  return {
    year: edition.year,
    editionName: edition.name,
    judge: { id: user.id, firstName: user.firstName || null, lastName: user.lastName || null },
    closesBy: juryDeadlineOf(edition).toISOString(),
    classes: mine.map(({ juryClass, cars: classCars }) => ({
      id: juryClass.id,
      name: juryClass.name,
      criteria: juryClass.criteria,
      places: juryClass.places,
      state: juryClass.closedAt ? 'closed' : 'open',
      isHead: juryClass.headJudge?.id === userId,
      cars: classCars.map((car) => car.start_number),
      result: juryClass.closedAt && juryClass.record ? juryClass.record.rows : null,
    })),
    cars: listed.map((car) => ({
      vehicleId: car.vehicle_id,
      startNumber: car.start_number,
      title: car.title,
      brand: car.brand,
      model: car.model,
      year: car.year,
      parkingZone: car.parking_zone,
      imageUrl: car.image_url,
      classIds: inMine.get(car.vehicle_id) ?? [],
      excluded: car.user_id === userId ? 'own' : (excluded.get(car.vehicle_id) ?? null),
    })),
    scores: scoreViews(mine, own, startNumberOf),
    recusals: listed
      .filter((car) => excluded.get(car.vehicle_id) === 'biased')
      .map((car) => car.start_number),
  };
}

const taken = (id: string): JuryEntryState => ({ id, result: 'taken', message: null });
const refused = (id: string, message: string): JuryEntryState => ({ id, result: 'refused', message });

/**
 * POST /api/jury/sync: records what a judge's device entered while offline or online, in one
 * transaction with the judge's classes shared-locked (closing takes them exclusively, so a value
 * either lands before the ranking or is refused as too late). An entry that may not count (a class
 * closed, the judge's own car or a declared bias, a value beyond the scale, after the deadline) is
 * refused with its reason and never sent again by the device. The answer holds the judge's values
 * as they now stand.
 */
export async function syncJudge(
  em: EntityManager,
  userId: string,
  input: {
    deviceId: string;
    entries: JuryEntryInput[];
    recusals: { id: string; startNumber: number; enteredAt: string }[];
  },
  at: Date,
): Promise<JurySyncResult> {
  return em.fork().transactional(async (tx) => {
    const edition = await judgedEdition(tx, userId, at);
    const deadline = juryDeadlineOf(edition);
    const jury = await tx.findOne(Jury, { edition: edition.id });
    const mineIds = await classesOfJudge(tx, edition.id, userId);
    await lockClasses(tx, mineIds, 'share');
    const { classes, cars } = await juryField(tx, edition, { classIds: mineIds });
    const byStartNumber = new Map(cars.map((car) => [car.start_number, car]));
    const fieldOf = new Map(classes.map((field) => [field.juryClass.id, field]));
    const bounded = (iso: string) =>
      new Date(Math.min(new Date(iso).getTime(), at.getTime() + JURY_CLOCK_SKEW_MS));
    const late = at.getTime() > deadline.getTime() || Boolean(jury?.publishedAt);

    // Bias declarations first: a value entered for the same car in this sync no longer counts.
    const recusalStates: JuryEntryState[] = [];
    const recused: { id: string; vehicleId: string; enteredAt: Date }[] = [];
    for (const recusal of input.recusals) {
      const car = byStartNumber.get(recusal.startNumber);
      if (!car || !classes.some((field) => field.cars.some((c) => c.vehicle_id === car.vehicle_id))) {
        recusalStates.push(refused(recusal.id, JURY_MESSAGES.unknownCar(recusal.startNumber)));
        continue;
      }
      recused.push({ id: recusal.id, vehicleId: car.vehicle_id, enteredAt: bounded(recusal.enteredAt) });
      recusalStates.push(taken(recusal.id));
    }
    await insertRecusals(tx, edition.id, userId, recused, at);
    const recusedIds = new Set(recused.map((r) => r.vehicleId));

    const entryStates: JuryEntryState[] = [];
    const writes: Parameters<typeof upsertScores>[1] = [];
    for (const entry of input.entries) {
      const field = fieldOf.get(entry.classId);
      const car = byStartNumber.get(entry.startNumber);
      const enteredAt = bounded(entry.enteredAt);
      const reason = ((): string | null => {
        if (!field) return JURY_MESSAGES.unknownClass;
        const { juryClass } = field;
        if (juryClass.closedAt) return JURY_MESSAGES.classClosed(juryClass.name);
        if (late) return JURY_MESSAGES.frozen(edition.name);
        if (!car || !field.cars.some((c) => c.vehicle_id === car.vehicle_id))
          return car
            ? JURY_MESSAGES.notInClass(juryClass.name, entry.startNumber)
            : JURY_MESSAGES.unknownCar(entry.startNumber);
        if (car.user_id === userId) return JURY_MESSAGES.ownCar;
        if (recusedIds.has(car.vehicle_id) || !scores(field, userId, car.vehicle_id))
          return JURY_MESSAGES.biased;
        const criterion = juryClass.criteria.find((c) => c.id === entry.criterion);
        if (!criterion) return JURY_MESSAGES.unknownCriterion;
        if (entry.value > criterion.max) return JURY_MESSAGES.valueRange(criterion.max);
        if (enteredAt.getTime() < edition.gateOpensAt.getTime() - JURY_CLOCK_SKEW_MS)
          return JURY_MESSAGES.notYet;
        return null;
      })();
      if (reason) {
        entryStates.push(refused(entry.id, reason));
        continue;
      }
      writes.push({
        entryId: entry.id,
        classId: entry.classId,
        judgeId: userId,
        vehicleId: car!.vehicle_id,
        criterion: entry.criterion,
        value: entry.value,
        enteredAt,
        receivedAt: at,
        deviceId: input.deviceId,
      });
      entryStates.push(taken(entry.id));
    }
    await upsertScores(tx, writes);

    const own = await juryScores(tx, { classIds: mineIds, judgeId: userId });
    const startNumberOf = new Map(cars.map((car) => [car.vehicle_id, car.start_number]));
    const biased = new Set([
      ...recusedIds,
      ...[...(classes[0]?.excluded.get(userId)?.entries() ?? [])]
        .filter(([, kind]) => kind === 'biased')
        .map(([id]) => id),
    ]);
    return {
      entries: entryStates,
      recusals: recusalStates,
      scores: scoreViews(classes, own, startNumberOf),
      recusedStartNumbers: cars.filter((car) => biased.has(car.vehicle_id)).map((car) => car.start_number),
      syncedAt: at.toISOString(),
    };
  });
}

/** A class, for its head judge or an admin (404 for anyone else: the class's existence is not theirs to learn). */
export async function classForLead(
  em: EntityManager,
  classId: string,
  user: { id: string; role: string },
): Promise<{ juryClass: JuryClass; edition: Edition }> {
  const juryClass = await em.findOne(JuryClass, classId, { populate: ['edition'] });
  const lead = juryClass && (user.role === 'admin' || juryClass.headJudge?.id === user.id);
  if (!juryClass || !lead) {
    if (juryClass && (await isJudgeOf(em, juryClass.edition.id, user.id)))
      throw forbidden(JURY_MESSAGES.closeNotAllowed);
    throw notFound(JURY_MESSAGES.unknownClass);
  }
  return { juryClass, edition: juryClass.edition as unknown as Edition };
}

/** GET /api/jury/classes/:id: progress and (once closed) the result, for the head judge or an admin. */
export async function classProgress(
  em: EntityManager,
  classId: string,
  user: { id: string; role: string },
): Promise<JuryClassProgress> {
  const { juryClass, edition } = await classForLead(em, classId, user);
  const { classes, judges } = await juryField(em, edition, { classIds: [juryClass.id] });
  const field = classes[0]!;
  const progress = progressOf(field, judges);
  return {
    id: juryClass.id,
    name: juryClass.name,
    state: juryClass.closedAt ? 'closed' : 'open',
    cardsExpected: progress.expected,
    cardsDone: progress.done,
    missing: progress.missing,
    result:
      juryClass.closedAt && juryClass.record
        ? {
            rows: juryClass.record.rows,
            closedAt: juryClass.closedAt.toISOString(),
            closedBy: judges.get(juryClass.closedBy?.id ?? '')?.name ?? 'Admin',
            forceReason: juryClass.forceReason ?? null,
            tieBreaks: juryClass.record.tieBreaks,
          }
        : null,
  };
}

/**
 * Judging at the car: a judge's classes and cars as the device keeps them, and the values it sends
 * when the network allows. Like the gate's scans: each entry carries its own id and the moment it
 * was entered (a device clock ahead of the server's counts as now); per judge, car and criterion the
 * entry entered last counts, so resending, reordering or syncing from two devices ends the same.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { inJuryScope, JURY_CLOCK_SKEW_MS, JURY_MESSAGES, type JuryEntryInput } from '@schlosstreffen/shared';
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
import { JuryClass } from '../model/jury.entity.js';
import { User } from '../model/user.entity.js';
import { classResultOf, isJuryFrozen, juryDeadlineOf, juryField, progressOf } from './jury-field.js';
import {
  insertRecusals,
  isJudgeOf,
  juryCarsForSync,
  juryExclusions,
  juryScores,
  judgeClasses,
  writeScores,
  type ScoreInsert,
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

/** A judge's values of these classes as the device keeps them (by start number). */
function scoreViews(
  classIds: string[],
  rows: { jury_class_id: string; vehicle_id: string; criterion: string; value: number; entered_at: Date }[],
  startNumberOf: Map<string, number>,
): JuryScoreView[] {
  const known = new Set(classIds);
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
  const { classes, cars } = await juryField(em, edition, { judgeId: userId, values: false });
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
    scores: scoreViews(
      mine.map((f) => f.juryClass.id),
      own,
      startNumberOf,
    ),
    recusals: listed
      .filter((car) => excluded.get(car.vehicle_id) === 'biased')
      .map((car) => car.start_number),
  };
}

const taken = (id: string): JuryEntryState => ({ id, result: 'taken', message: null });
const refused = (id: string, message: string): JuryEntryState => ({ id, result: 'refused', message });

/** The edition a sync is for: the current one, as the api's edition cache knows it. */
export interface SyncEdition {
  id: string;
  name: string;
  end: Date;
  gateOpensAt: Date;
}

const syncEditionOf = (edition: Edition): SyncEdition => ({
  id: edition.id,
  name: edition.name,
  end: edition.endsAt,
  gateOpensAt: edition.gateOpensAt,
});

/**
 * POST /api/jury/sync: records what a judge's device entered while offline or online: three reads
 * at once, then one statement that share-locks the classes it writes into and writes only into
 * those still open (closing takes a class exclusively, so a value either lands before the ranking
 * or is refused as too late). An entry that
 * may not count (a class closed, the judge's own car or a declared bias, a value beyond the scale,
 * after the deadline or the publication) is refused with its reason and never sent again by the
 * device. The answer holds the judge's values as they now stand.
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
  /** The current edition as the caller's edition cache knows it; read here when absent. */
  current?: SyncEdition,
): Promise<JurySyncResult> {
  const fork = em.fork();
  const edition = current ?? syncEditionOf(await currentEdition(fork, at));
  const [classes, cars, exclusions] = await Promise.all([
    judgeClasses(fork, edition.id, userId),
    juryCarsForSync(fork, edition.id),
    juryExclusions(fork, edition.id, [userId]),
  ]);
  if (classes.length === 0 && !(await isJudgeOf(fork, edition.id, userId)))
    throw forbidden(JURY_MESSAGES.notJudge);
  const excluded = new Set(exclusions.map((row) => row.vehicle_id));
  const byStartNumber = new Map(cars.map((car) => [car.start_number, car]));
  const carsOf = new Map(
    classes.map((juryClass) => [
      juryClass.id,
      new Set(
        cars
          .filter((car) =>
            inJuryScope(juryClass.scope, {
              parkingZone: car.parking_zone,
              tuningCategories: car.tuning_categories ?? [],
              year: car.year,
            }),
          )
          .map((car) => car.vehicle_id),
      ),
    ]),
  );
  const classOf = new Map(classes.map((juryClass) => [juryClass.id, juryClass]));
  const bounded = (iso: string) =>
    new Date(Math.min(new Date(iso).getTime(), at.getTime() + JURY_CLOCK_SKEW_MS));
  const late = isJuryFrozen({ endsAt: edition.end }, at) || classes.some((c) => c.published_at !== null);

  // Bias declarations first (in a transaction of their own): a value entered for the same car in
  // this sync no longer counts.
  const recusalStates: JuryEntryState[] = [];
  const recused: { id: string; vehicleId: string; enteredAt: Date }[] = [];
  for (const recusal of input.recusals) {
    const car = byStartNumber.get(recusal.startNumber);
    if (!car || ![...carsOf.values()].some((set) => set.has(car.vehicle_id))) {
      recusalStates.push(refused(recusal.id, JURY_MESSAGES.unknownCar(recusal.startNumber)));
      continue;
    }
    recused.push({ id: recusal.id, vehicleId: car.vehicle_id, enteredAt: bounded(recusal.enteredAt) });
    recusalStates.push(taken(recusal.id));
  }
  if (recused.length > 0)
    await em.fork().transactional((tx) => insertRecusals(tx, edition.id, userId, recused, at));
  for (const recusal of recused) excluded.add(recusal.vehicleId);

  const entryStates: JuryEntryState[] = [];
  const writes: { entry: JuryEntryInput; row: ScoreInsert }[] = [];
  for (const entry of input.entries) {
    const juryClass = classOf.get(entry.classId);
    const car = byStartNumber.get(entry.startNumber);
    const enteredAt = bounded(entry.enteredAt);
    const reason = ((): string | null => {
      if (!juryClass) return JURY_MESSAGES.unknownClass;
      if (juryClass.closed_at) return JURY_MESSAGES.classClosed(juryClass.name);
      if (late) return JURY_MESSAGES.frozen(edition.name);
      if (!car) return JURY_MESSAGES.unknownCar(entry.startNumber);
      if (!carsOf.get(juryClass.id)!.has(car.vehicle_id))
        return JURY_MESSAGES.notInClass(juryClass.name, entry.startNumber);
      if (car.user_id === userId) return JURY_MESSAGES.ownCar;
      if (excluded.has(car.vehicle_id)) return JURY_MESSAGES.biased;
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
      entry,
      row: {
        entryId: entry.id,
        classId: entry.classId,
        judgeId: userId,
        vehicleId: car!.vehicle_id,
        criterion: entry.criterion,
        value: entry.value,
        enteredAt,
        receivedAt: at,
        deviceId: input.deviceId,
      },
    });
  }
  // One statement: it takes the classes' rows for share and writes into those still open.
  const classIds = [...new Set(writes.map((write) => write.entry.classId))];
  const open = writes.length
    ? await writeScores(
        fork,
        classIds,
        writes.map((write) => write.row),
      )
    : new Set<string>();
  for (const { entry } of writes) {
    entryStates.push(
      open.has(entry.classId)
        ? taken(entry.id)
        : refused(entry.id, JURY_MESSAGES.classClosed(classOf.get(entry.classId)!.name)),
    );
  }

  const own = await juryScores(fork, { classIds: classes.map((c) => c.id), judgeId: userId });
  const startNumberOf = new Map(cars.map((car) => [car.vehicle_id, car.start_number]));
  const order = new Map(input.entries.map((entry, index) => [entry.id, index]));
  return {
    entries: entryStates.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
    recusals: recusalStates,
    scores: scoreViews(
      classes.map((c) => c.id),
      own,
      startNumberOf,
    ),
    recusedStartNumbers: cars
      .filter((car) => excluded.has(car.vehicle_id) && car.user_id !== userId)
      .map((car) => car.start_number)
      .sort((a, b) => a - b),
    syncedAt: at.toISOString(),
  };
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
    result: classResultOf(juryClass, judges),
  };
}

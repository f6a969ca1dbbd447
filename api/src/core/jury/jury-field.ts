/**
 * The jury's field: which cars compete in which class, who judges them, whose cards are complete
 * and whose are missing. Read in the caller's transaction; shared by the admin view, the judges'
 * view, closing and the head judge's progress.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  inJuryScope,
  isCompleteCard,
  JURY_CLOSE_GRACE_MS,
  PRIVACY_MESSAGES,
  vehicleDisplayName,
  type JuryRankCar,
} from '@schlosstreffen/shared';
import type { JuryClassResult, JuryMissing } from '@schlosstreffen/shared/api';
import type { Edition } from '../model/edition.entity.js';
import { JuryClass } from '../model/jury.entity.js';
import {
  classJudges,
  editionJudges,
  juryCars,
  juryExclusions,
  juryScores,
  type JuryCarRow,
} from './jury.queries.js';

export interface FieldCar extends JuryCarRow {
  /** 'Marke Modell' or the car's name, as its page names it. */
  title: string;
}

export interface JudgeName {
  id: string;
  name: string;
  email: string;
}

export interface ClassField {
  juryClass: JuryClass;
  /** Competing cars in walking order: the edition's zone order, then start number. */
  cars: FieldCar[];
  judgeIds: string[];
  /** judge id → vehicle ids they never score (own car, bias). */
  excluded: Map<string, Map<string, 'own' | 'biased'>>;
  /** vehicle id → judge id → values. */
  values: Map<string, Map<string, Record<string, number>>>;
}

/** The moment up to which classes close and results are published; afterwards the record is frozen. */
export const juryDeadlineOf = (edition: { endsAt: Date }): Date =>
  new Date(edition.endsAt.getTime() + JURY_CLOSE_GRACE_MS);

/** Whether the edition's jury belongs to the frozen record at `at` (its deadline has passed). */
export const isJuryFrozen = (edition: { endsAt: Date }, at: Date): boolean =>
  at.getTime() > juryDeadlineOf(edition).getTime();

/**
 * A closed class's ranking as staff see it: who closed it by name (a judge's), 'Admin' for an
 * admin who judges nothing, or the deleted account's name; null while it is open.
 */
export function classResultOf(juryClass: JuryClass, judges: Map<string, JudgeName>): JuryClassResult | null {
  if (!juryClass.closedAt || !juryClass.record) return null;
  const closer = juryClass.closedBy?.id;
  return {
    rows: juryClass.record.rows,
    closedAt: juryClass.closedAt.toISOString(),
    closedBy: (closer && judges.get(closer)?.name) ?? (closer ? 'Admin' : PRIVACY_MESSAGES.deletedAccount),
    forceReason: juryClass.forceReason ?? null,
    tieBreaks: juryClass.record.tieBreaks,
  };
}

/** 'Vorname Nachname', or the address's local part when the account has no name. */
export const judgeNameOf = (row: { first_name: string | null; last_name: string | null; email: string }) =>
  [row.first_name, row.last_name].filter(Boolean).join(' ').trim() || row.email.split('@')[0]!;

/** Cars in walking order: the edition's zones in their order (others after), then start number. */
export function walkingOrder(edition: Edition, cars: JuryCarRow[]): FieldCar[] {
  const zoneIndex = new Map(edition.parkingZones.map((zone, index) => [zone.name, index]));
  const rank = (zone: string) => zoneIndex.get(zone) ?? Number.MAX_SAFE_INTEGER;
  return [...cars]
    .sort((a, b) => rank(a.parking_zone) - rank(b.parking_zone) || a.start_number - b.start_number)
    .map((car) => ({ ...car, title: vehicleDisplayName(car) }));
}

/**
 * The field of every class of the edition (or the given ones), with every judge's values; for one
 * judge (`judgeId`: a judge's own screen and sync) only that judge's exclusions and values, and
 * none of them with `values: false`, so a judge's sync never reads the other judges' cards.
 */
export async function juryField(
  em: EntityManager,
  edition: Edition,
  options: { classIds?: string[]; judgeId?: string; values?: boolean } = {},
): Promise<{ classes: ClassField[]; cars: FieldCar[]; judges: Map<string, JudgeName> }> {
  const all = await em.find(
    JuryClass,
    { edition: edition.id },
    { orderBy: { position: 'asc', name: 'asc' } },
  );
  const classes = options.classIds ? all.filter((c) => options.classIds!.includes(c.id)) : all;
  const cars = walkingOrder(edition, await juryCars(em, edition.id));
  const pairs = await classJudges(em, edition.id);
  const judgeRows = options.judgeId ? [] : await editionJudges(em, edition.id);
  const judges = new Map(
    judgeRows.map((row) => [row.user_id, { id: row.user_id, name: judgeNameOf(row), email: row.email }]),
  );
  const judgeIds = options.judgeId ? [options.judgeId] : [...new Set(pairs.map((pair) => pair.user_id))];
  const exclusions = await juryExclusions(em, edition.id, judgeIds);
  const scores =
    options.values === false
      ? []
      : await juryScores(em, { classIds: classes.map((c) => c.id), judgeId: options.judgeId });

  const excludedOf = (judgeId: string) => {
    const map = new Map<string, 'own' | 'biased'>();
    for (const car of cars) if (car.user_id === judgeId) map.set(car.vehicle_id, 'own');
    for (const row of exclusions)
      if (row.judge_id === judgeId && !map.has(row.vehicle_id)) map.set(row.vehicle_id, 'biased');
    return map;
  };
  const excluded = new Map(judgeIds.map((id) => [id, excludedOf(id)]));

  const fields = classes.map((juryClass): ClassField => {
    const inClass = cars.filter((car) =>
      inJuryScope(juryClass.scope, {
        parkingZone: car.parking_zone,
        tuningCategories: car.tuning_categories ?? [],
        year: car.year,
      }),
    );
    const values = new Map<string, Map<string, Record<string, number>>>();
    for (const row of scores) {
      if (row.jury_class_id !== juryClass.id) continue;
      const byJudge = values.get(row.vehicle_id) ?? new Map<string, Record<string, number>>();
      const card = byJudge.get(row.judge_id) ?? {};
      card[row.criterion] = row.value;
      byJudge.set(row.judge_id, card);
      values.set(row.vehicle_id, byJudge);
    }
    return {
      juryClass,
      cars: inClass,
      judgeIds: pairs.filter((pair) => pair.jury_class_id === juryClass.id).map((pair) => pair.user_id),
      excluded,
      values,
    };
  });
  return { classes: fields, cars, judges };
}

/** Whether the judge scores this car in this class. */
export const scores = (field: ClassField, judgeId: string, vehicleId: string): boolean =>
  field.judgeIds.includes(judgeId) && !field.excluded.get(judgeId)?.has(vehicleId);

/** The cards a class expects (every judge of it, every car they may score) and the complete ones. */
export function progressOf(
  field: ClassField,
  judges: Map<string, JudgeName>,
): { expected: number; done: number; missing: JuryMissing[] } {
  let expected = 0;
  let done = 0;
  const missing: JuryMissing[] = [];
  for (const car of field.cars) {
    for (const judgeId of field.judgeIds) {
      if (!scores(field, judgeId, car.vehicle_id)) continue;
      expected += 1;
      const card = field.values.get(car.vehicle_id)?.get(judgeId) ?? {};
      if (isCompleteCard(field.juryClass.criteria, card)) done += 1;
      else
        missing.push({
          judgeId,
          judgeName: judges.get(judgeId)?.name ?? PRIVACY_MESSAGES.deletedAccount,
          startNumber: car.start_number,
          car: car.title,
        });
    }
  }
  return { expected, done, missing };
}

/** The class's cars with the complete cards of the judges who may score them: the ranking's input. */
export function rankInput(field: ClassField): JuryRankCar[] {
  return field.cars.map((car) => ({
    vehicleId: car.vehicle_id,
    startNumber: car.start_number,
    name: car.title,
    cards: field.judgeIds
      .filter((judgeId) => scores(field, judgeId, car.vehicle_id))
      .flatMap((judgeId) => {
        const values = field.values.get(car.vehicle_id)?.get(judgeId);
        return values && isCompleteCard(field.juryClass.criteria, values) ? [{ judgeId, values }] : [];
      }),
  }));
}

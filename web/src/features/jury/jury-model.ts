import { isCompleteCard, weightedTotal, type JuryCriterion } from '@schlosstreffen/shared';
import type {
  JuryCarView,
  JuryJudgeClassView,
  JuryJudgeView,
  JuryScoreView,
} from '@schlosstreffen/shared/api';

/**
 * What a judge's screens show, from the device's copy: the server's values (the last answer) with
 * the entries still waiting on the device laid over them. Per car and criterion the value entered
 * last counts, by its moment, whichever side holds it.
 */

/** One value on a scorecard as entered on this device, waiting for or refused by the server. */
export interface QueuedEntry {
  id: string;
  classId: string;
  startNumber: number;
  criterion: string;
  value: number;
  enteredAt: string;
  /** pending until the server has it; refused: never counts, `message` says why. */
  state: 'pending' | 'refused';
  message: string | null;
}

/** 'Befangen' pressed on this device: the judge scores the car in no class. */
export interface QueuedRecusal {
  id: string;
  startNumber: number;
  enteredAt: string;
  state: 'pending' | 'refused';
  message: string | null;
}

export interface MergedValue {
  value: number;
  enteredAt: string;
  /** Entered on this device and not yet acknowledged. */
  pending: boolean;
}

export const scoreKey = (classId: string, startNumber: number, criterion: string): string =>
  `${classId}|${startNumber}|${criterion}`;

/** The server's values with the pending entries over them: the later `enteredAt` wins. */
export function mergeScores(
  server: readonly JuryScoreView[],
  entries: readonly QueuedEntry[],
): Map<string, MergedValue> {
  const merged = new Map<string, MergedValue>();
  for (const score of server) {
    merged.set(scoreKey(score.classId, score.startNumber, score.criterion), {
      value: score.value,
      enteredAt: score.enteredAt,
      pending: false,
    });
  }
  for (const entry of entries) {
    if (entry.state !== 'pending') continue;
    const key = scoreKey(entry.classId, entry.startNumber, entry.criterion);
    const current = merged.get(key);
    if (!current || Date.parse(entry.enteredAt) >= Date.parse(current.enteredAt)) {
      merged.set(key, { value: entry.value, enteredAt: entry.enteredAt, pending: true });
    }
  }
  return merged;
}

export type Exclusion = JuryCarView['excluded'];

/** What a class shows for one judge: how many of its cars they scored fully, and of how many. */
export interface ClassSummary {
  /** Cars with a complete card. */
  done: number;
  /** Cars this judge scores (own and biased ones left out). */
  scorable: number;
  excluded: number;
}

/** The judge's view with the device's queue laid over it. */
export interface JuryModel {
  view: JuryJudgeView;
  classes: JuryJudgeClassView[];
  carOf: (startNumber: number) => JuryCarView | undefined;
  classOf: (classId: string) => JuryJudgeClassView | undefined;
  /** Own car, or a bias declared on the server or on this device. */
  exclusionOf: (startNumber: number) => Exclusion;
  /** The values of this judge's card of a car in a class, by criterion id. */
  valuesOf: (classId: string, startNumber: number) => Record<string, number>;
  /** Whether one of the card's values still waits on this device. */
  hasPending: (classId: string, startNumber: number) => boolean;
  /** The criteria still without a value. */
  openCriteria: (classId: string, startNumber: number) => JuryCriterion[];
  summaryOf: (classId: string) => ClassSummary;
  /** The classes of this judge a car competes in, in the view's order. */
  classesOfCar: (startNumber: number) => JuryJudgeClassView[];
}

export function juryModel(
  view: JuryJudgeView,
  entries: readonly QueuedEntry[],
  recusals: readonly QueuedRecusal[],
): JuryModel {
  const merged = mergeScores(view.scores, entries);
  const cars = new Map(view.cars.map((car) => [car.startNumber, car]));
  const classes = new Map(view.classes.map((c) => [c.id, c]));
  const recused = new Set([
    ...view.recusals,
    ...recusals.filter((r) => r.state === 'pending').map((r) => r.startNumber),
  ]);

  const exclusionOf = (startNumber: number): Exclusion => {
    const excluded = cars.get(startNumber)?.excluded ?? null;
    if (excluded) return excluded;
    return recused.has(startNumber) ? 'biased' : null;
  };

  const valuesOf = (classId: string, startNumber: number): Record<string, number> => {
    const values: Record<string, number> = {};
    for (const criterion of classes.get(classId)?.criteria ?? []) {
      const value = merged.get(scoreKey(classId, startNumber, criterion.id));
      if (value) values[criterion.id] = value.value;
    }
    return values;
  };

  const hasPending = (classId: string, startNumber: number): boolean =>
    (classes.get(classId)?.criteria ?? []).some(
      (criterion) => merged.get(scoreKey(classId, startNumber, criterion.id))?.pending === true,
    );

  const openCriteria = (classId: string, startNumber: number): JuryCriterion[] => {
    const values = valuesOf(classId, startNumber);
    return (classes.get(classId)?.criteria ?? []).filter((criterion) => values[criterion.id] === undefined);
  };

  const summaryOf = (classId: string): ClassSummary => {
    const jc = classes.get(classId);
    if (!jc) return { done: 0, scorable: 0, excluded: 0 };
    let done = 0;
    let excluded = 0;
    for (const startNumber of jc.cars) {
      if (exclusionOf(startNumber)) excluded += 1;
      else if (isCompleteCard(jc.criteria, valuesOf(classId, startNumber))) done += 1;
    }
    return { done, scorable: jc.cars.length - excluded, excluded };
  };

  return {
    view,
    classes: view.classes,
    carOf: (startNumber) => cars.get(startNumber),
    classOf: (classId) => classes.get(classId),
    exclusionOf,
    valuesOf,
    hasPending,
    openCriteria,
    summaryOf,
    classesOfCar: (startNumber) => view.classes.filter((c) => c.cars.includes(startNumber)),
  };
}

/** The weighted total of the card so far and the most it can reach. */
export function cardTotal(
  criteria: readonly JuryCriterion[],
  values: Record<string, number>,
): { total: number; max: number; complete: boolean } {
  return {
    total: weightedTotal(criteria, values),
    max: criteria.reduce((sum, c) => sum + c.weight * c.max, 0),
    complete: isCompleteCard(criteria, values),
  };
}

/** 'Lotus Elan' or, without a title, 'Marke Modell'. */
export function carName(car: Pick<JuryCarView, 'title' | 'brand' | 'model'>): string {
  return car.title.trim() || `${car.brand} ${car.model}`.trim();
}

/** Why a judge does not score a car, as the screens say it. */
export const EXCLUSION_LABEL: Record<NonNullable<Exclusion>, string> = {
  own: 'Eigenes Auto',
  biased: 'Befangen',
};

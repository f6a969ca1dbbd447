/**
 * The jury of a meeting: classes with weighted scorecards, judges who score at the car (offline,
 * synced like the gate), closing a class into a ranking, publishing the results. The rules that the
 * server and the screens share: limits, German texts, the request schemas, the ranking.
 */
import * as v from 'valibot';
import { fieldObject } from './schemas/issues.js';

export const JURY_LIMITS = {
  classes: 12,
  className: 60,
  criteria: 8,
  criterionName: 40,
  weightMin: 1,
  weightMax: 10,
  scaleMin: 1,
  scaleMax: 100,
  /** The scale a criterion gets unless set: 0–10. */
  scaleDefault: 10,
  placesMin: 1,
  placesMax: 3,
  judges: 60,
  reasonMin: 10,
  reasonMax: 500,
  /** Scorecard entries (one criterion of one car) and bias declarations per sync. */
  syncEntries: 500,
  syncRecusals: 100,
} as const;

/** Classes close and results are published up to this long after the meeting's end; then frozen. */
export const JURY_CLOSE_GRACE_MS = 24 * 3600_000;

/** A judge's device clock ahead of the server's counts as now, as at the gate. */
export const JURY_CLOCK_SKEW_MS = 2 * 60_000;

/** The criteria a new class starts with (the organizers change them). */
export const JURY_DEFAULT_CRITERIA: readonly { name: string; weight: number; max: number }[] = [
  { name: 'Sauberkeit', weight: 1, max: 10 },
  { name: 'Qualität des Umbaus', weight: 2, max: 10 },
  { name: 'Originalität', weight: 1, max: 10 },
  { name: 'Gesamteindruck', weight: 2, max: 10 },
];

/** A published place, as the car page and the dashboard name it: '1. Platz – Bester Umbau 2026'. */
export const juryPlaceTitle = (place: number, className: string, year: number): string =>
  `${place}. Platz – ${className} ${year}`;

/** A weighted total or mean as shown: two decimals at most, German comma. */
export const formatJuryPoints = (points: number): string =>
  new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }).format(points);

export const JURY_MESSAGES = {
  notJudge: 'Sie sind für diese Veranstaltung nicht als Jurymitglied eingetragen.',
  notJudgeOfClass: (name: string) => `Sie sind in der Klasse „${name}“ nicht als Jurymitglied eingetragen.`,
  ownCar: 'Ihr eigenes Auto bewerten Sie nicht.',
  biased: 'Sie haben sich für dieses Auto als befangen erklärt und bewerten es nicht.',
  notInClass: (name: string, startNumber: number) =>
    `Startnummer ${startNumber} tritt in der Klasse „${name}“ nicht an.`,
  unknownClass: 'Diese Klasse gibt es nicht.',
  unknownCar: (startNumber: number) =>
    `Startnummer ${startNumber} ist bei dieser Veranstaltung nicht bestätigt.`,
  unknownCriterion: 'Dieses Kriterium gehört nicht zur Bewertung der Klasse.',
  valueRange: (max: number) => `Bewertungen liegen zwischen 0 und ${max}.`,
  classClosed: (name: string) =>
    `Die Klasse „${name}“ ist abgeschlossen: Bewertungen werden nicht mehr angenommen.`,
  classOpen: (name: string) => `Die Klasse „${name}“ ist noch nicht abgeschlossen.`,
  notYet: 'Bewertet wird ab dem Einlass am Veranstaltungstag.',
  closeNotAllowed: 'Eine Klasse schließen nur Admins und die Jury-Leitung der Klasse.',
  forceAdminOnly: 'Trotz fehlender Bewertungen schließen nur Admins, mit Begründung.',
  missingScores: (count: number) =>
    count === 1 ? 'Es fehlt noch eine Bewertung:' : `Es fehlen noch ${count} Bewertungen:`,
  missingLine: (judge: string, startNumber: number, car: string) =>
    `${judge} – Startnummer ${startNumber} (${car})`,
  tieNeedsChoice: (place: number, startNumbers: number[]) =>
    `Gleichstand um Platz ${place} zwischen den Startnummern ${startNumbers.join(', ')}: Die Jury-Leitung legt die Reihenfolge mit Begründung fest.`,
  tieChoiceInvalid: 'Die gewählte Reihenfolge muss genau die gleichauf liegenden Autos enthalten.',
  noCars: (name: string) => `In der Klasse „${name}“ tritt kein Auto an.`,
  notAllClosed: (names: string[]) =>
    `Erst wenn alle Klassen abgeschlossen sind, können die Ergebnisse veröffentlicht werden. Noch offen: ${names.join(', ')}.`,
  noClasses: 'Für diese Veranstaltung sind keine Klassen angelegt.',
  noResults: (year: number) => `Für ${year} sind keine Jury-Ergebnisse veröffentlicht.`,
  published: 'Die Ergebnisse sind veröffentlicht.',
  alreadyPublished: 'Die Ergebnisse sind schon veröffentlicht.',
  publishedLocked: 'Die Ergebnisse sind veröffentlicht: Klassen und Bewertungen ändern sich nicht mehr.',
  frozen: (edition: string) =>
    `${edition} ist abgeschlossen: Die Jury-Ergebnisse gehören zum Archiv und ändern sich nur durch eine Korrektur eines Admins mit Begründung.`,
  correctionOnlyPast: 'Korrekturen gibt es erst, wenn die Ergebnisse zum Archiv gehören.',
  correctionOrder:
    'Die Korrektur muss die Plätze mit Startnummern der Klasse belegen, jede höchstens einmal.',
  classHasScores: 'Diese Klasse hat schon Bewertungen und kann nicht mehr gelöscht werden.',
  criteriaLocked: 'Sobald bewertet wurde, ändern sich die Kriterien nicht mehr.',
  headJudgeNotJudge: 'Die Jury-Leitung muss ein Jurymitglied der Klasse sein.',
  judgeUnknownAccount: 'Zu dieser Adresse gibt es kein bestätigtes Konto.',
  judgeAdded: 'Als Jurymitglied eingetragen.',
  judgeInvited: 'Einladung verschickt.',
  inviteInvalid: 'Dieser Einladungslink ist ungültig oder abgelaufen.',
  inviteOtherAddress:
    'Diese Einladung gilt für eine andere E-Mail-Adresse. Melde dich mit dem Konto dieser Adresse an.',
  inviteAccepted: (edition: string) => `Sie sind jetzt Jurymitglied bei ${edition}.`,
  nameRequired: 'Bitte einen Namen angeben.',
  nameMax: `Der Name darf höchstens ${JURY_LIMITS.className} Zeichen lang sein.`,
  nameTaken: 'Eine Klasse mit diesem Namen gibt es schon.',
  criterionNameRequired: 'Bitte jedem Kriterium einen Namen geben.',
  criterionNameMax: `Ein Kriterium heißt höchstens ${JURY_LIMITS.criterionName} Zeichen lang.`,
  criterionNamesUnique: 'Jedes Kriterium braucht einen eigenen Namen.',
  criteriaCount: `Eine Klasse hat 1 bis ${JURY_LIMITS.criteria} Kriterien.`,
  weight: `Gewichte liegen zwischen ${JURY_LIMITS.weightMin} und ${JURY_LIMITS.weightMax}.`,
  scale: `Die Skala reicht von 0 bis höchstens ${JURY_LIMITS.scaleMax}.`,
  places: `Vergeben werden 1 bis ${JURY_LIMITS.placesMax} Plätze.`,
  years: 'Baujahre als vierstellige Jahreszahlen, „von“ nicht nach „bis“.',
  reason: `Bitte eine Begründung mit mindestens ${JURY_LIMITS.reasonMin} Zeichen angeben.`,
  reasonMax: `Die Begründung darf höchstens ${JURY_LIMITS.reasonMax} Zeichen lang sein.`,
  email: 'Bitte eine gültige E-Mail-Adresse angeben.',
  syncMax: `Höchstens ${JURY_LIMITS.syncEntries} Bewertungen auf einmal.`,
  timestamp: 'Ungültiger Zeitpunkt.',
} as const;

const reason = v.pipe(
  v.string(JURY_MESSAGES.reason),
  v.trim(),
  v.minLength(JURY_LIMITS.reasonMin, JURY_MESSAGES.reason),
  v.maxLength(JURY_LIMITS.reasonMax, JURY_MESSAGES.reasonMax),
);

const criterion = v.object({
  /** Kept when a criterion is renamed (absent for a new one). */
  id: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/))),
  name: v.pipe(
    v.string(JURY_MESSAGES.criterionNameRequired),
    v.trim(),
    v.nonEmpty(JURY_MESSAGES.criterionNameRequired),
    v.maxLength(JURY_LIMITS.criterionName, JURY_MESSAGES.criterionNameMax),
  ),
  weight: v.pipe(
    v.number(JURY_MESSAGES.weight),
    v.integer(JURY_MESSAGES.weight),
    v.minValue(JURY_LIMITS.weightMin, JURY_MESSAGES.weight),
    v.maxValue(JURY_LIMITS.weightMax, JURY_MESSAGES.weight),
  ),
  max: v.optional(
    v.pipe(
      v.number(JURY_MESSAGES.scale),
      v.integer(JURY_MESSAGES.scale),
      v.minValue(JURY_LIMITS.scaleMin, JURY_MESSAGES.scale),
      v.maxValue(JURY_LIMITS.scaleMax, JURY_MESSAGES.scale),
    ),
    JURY_LIMITS.scaleDefault,
  ),
});

const constructionYear = v.nullable(
  v.pipe(
    v.number(JURY_MESSAGES.years),
    v.integer(JURY_MESSAGES.years),
    v.minValue(1886, JURY_MESSAGES.years),
    v.maxValue(2100, JURY_MESSAGES.years),
  ),
);

/** Which confirmed cars compete: every given filter must match (an empty one matches all). */
export const JuryScopeSchema = v.pipe(
  v.object({
    zones: v.optional(v.array(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(40))), []),
    categories: v.optional(v.array(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(60))), []),
    yearFrom: v.optional(constructionYear, null),
    yearTo: v.optional(constructionYear, null),
  }),
  v.check(
    (scope) => scope.yearFrom === null || scope.yearTo === null || scope.yearFrom <= scope.yearTo,
    JURY_MESSAGES.years,
  ),
);
export type JuryScope = v.InferOutput<typeof JuryScopeSchema>;

/** Body of POST /api/admin/jury/:year/classes and PATCH …/classes/:id (all fields, as the form sends them). */
export const JuryClassSchema = fieldObject({
  name: v.pipe(
    v.string(JURY_MESSAGES.nameRequired),
    v.trim(),
    v.nonEmpty(JURY_MESSAGES.nameRequired),
    v.maxLength(JURY_LIMITS.className, JURY_MESSAGES.nameMax),
  ),
  scope: v.optional(JuryScopeSchema, { zones: [], categories: [], yearFrom: null, yearTo: null }),
  criteria: v.pipe(
    v.array(criterion, JURY_MESSAGES.criteriaCount),
    v.minLength(1, JURY_MESSAGES.criteriaCount),
    v.maxLength(JURY_LIMITS.criteria, JURY_MESSAGES.criteriaCount),
    v.check(
      (list) => new Set(list.map((c) => c.name.toLocaleLowerCase('de'))).size === list.length,
      JURY_MESSAGES.criterionNamesUnique,
    ),
  ),
  places: v.pipe(
    v.number(JURY_MESSAGES.places),
    v.integer(JURY_MESSAGES.places),
    v.minValue(JURY_LIMITS.placesMin, JURY_MESSAGES.places),
    v.maxValue(JURY_LIMITS.placesMax, JURY_MESSAGES.places),
  ),
  /** Account ids of the class's judges. */
  judgeIds: v.optional(v.pipe(v.array(v.pipe(v.string(), v.uuid())), v.maxLength(JURY_LIMITS.judges)), []),
  /** The head judge: one of `judgeIds`, or none. */
  headJudgeId: v.optional(v.nullable(v.pipe(v.string(), v.uuid())), null),
});
export type JuryClassInput = v.InferOutput<typeof JuryClassSchema>;

/** Body of POST /api/admin/jury/:year/judges: an account's address (or one to invite) and its classes. */
export const JuryJudgeSchema = fieldObject({
  email: v.pipe(
    v.string(JURY_MESSAGES.email),
    v.trim(),
    v.email(JURY_MESSAGES.email),
    v.maxLength(254, JURY_MESSAGES.email),
  ),
  /** The classes to judge; absent: every class of the edition. */
  classIds: v.optional(v.array(v.pipe(v.string(), v.uuid()))),
  /** Without an account of that address: send an invitation by mail. */
  invite: v.optional(v.boolean(), false),
});
export type JuryJudgeInput = v.InferOutput<typeof JuryJudgeSchema>;

/** Body of PATCH /api/admin/jury/:year/judges/:userId: the classes the judge scores. */
export const JuryJudgeClassesSchema = fieldObject({
  classIds: v.array(v.pipe(v.string(), v.uuid())),
});

const timestamp = v.pipe(v.string(JURY_MESSAGES.timestamp), v.isoTimestamp(JURY_MESSAGES.timestamp));
const startNumber = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99_999));

/** One value entered on a scorecard: its own id (a resend is the same entry) and the device's time. */
export const JuryEntrySchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  classId: v.pipe(v.string(), v.uuid()),
  startNumber,
  criterion: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/)),
  value: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(JURY_LIMITS.scaleMax)),
  enteredAt: timestamp,
});
export type JuryEntryInput = v.InferOutput<typeof JuryEntrySchema>;

/** 'Befangen' pressed on a car's scorecard: the judge scores it in no class. */
export const JuryRecusalSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  startNumber,
  enteredAt: timestamp,
});

/** Body of POST /api/jury/sync. */
export const JurySyncSchema = fieldObject({
  deviceId: v.pipe(v.string(), v.uuid()),
  entries: v.pipe(v.array(JuryEntrySchema), v.maxLength(JURY_LIMITS.syncEntries, JURY_MESSAGES.syncMax)),
  recusals: v.optional(v.pipe(v.array(JuryRecusalSchema), v.maxLength(JURY_LIMITS.syncRecusals)), []),
});
export type JurySyncInput = v.InferOutput<typeof JurySyncSchema>;

/** A tie the head judge decides: the tied cars in the chosen order, and why. */
export const JuryTieBreakSchema = v.object({
  startNumbers: v.pipe(v.array(startNumber), v.minLength(2)),
  reason,
});
export type JuryTieBreak = v.InferOutput<typeof JuryTieBreakSchema>;

/** Body of POST /api/jury/classes/:id/close. */
export const JuryCloseSchema = fieldObject({
  tieBreaks: v.optional(v.array(JuryTieBreakSchema), []),
  /** An admin closes although scores are missing: why. */
  forceReason: v.optional(reason),
});
export type JuryCloseInput = v.InferOutput<typeof JuryCloseSchema>;

/** Body of POST /api/admin/jury/:year/correction: a class's places set anew, with a reason. */
export const JuryCorrectionSchema = fieldObject({
  classId: v.pipe(v.string(), v.uuid()),
  /** Start numbers from the first place on (as many as the class awards, fewer if it had fewer cars). */
  places: v.pipe(v.array(startNumber), v.minLength(1), v.maxLength(JURY_LIMITS.placesMax)),
  reason,
});
export type JuryCorrectionInput = v.InferOutput<typeof JuryCorrectionSchema>;

/** Body of POST /api/jury/accept. */
export const JuryAcceptSchema = fieldObject({ token: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)) });

// --- the ranking ------------------------------------------------------------------------------

export interface JuryCriterion {
  id: string;
  name: string;
  weight: number;
  max: number;
}

/** A judge's complete scorecard of one car: a value per criterion. */
export interface JuryCard {
  judgeId: string;
  values: Record<string, number>;
}

export interface JuryRankCar {
  vehicleId: string;
  startNumber: number;
  name: string;
  cards: JuryCard[];
}

export interface JuryRankRow {
  vehicleId: string;
  startNumber: number;
  name: string;
  /** Judges whose complete card counts. */
  judges: number;
  /** The mean of those judges' weighted totals (Σ weight × value); null without any card. */
  mean: number | null;
  /** The mean in the heaviest criterion: the first tie rule. */
  heaviestMean: number | null;
  /** 1, 2, 3… in order; null without any card. */
  rank: number | null;
  /** The awarded place (1 to the class's places), null for the others. */
  place: number | null;
  /** Set when the head judge's choice decided this car's order against equal ones. */
  tieBreak: string | null;
}

export interface JuryTie {
  /** The first place the tied cars contend for. */
  place: number;
  startNumbers: number[];
}

/** The weighted total of one complete card: Σ weight × value. */
export function weightedTotal(criteria: readonly JuryCriterion[], values: Record<string, number>): number {
  return criteria.reduce((sum, c) => sum + c.weight * (values[c.id] ?? 0), 0);
}

/** Whether a card holds a value for every criterion. */
export const isCompleteCard = (criteria: readonly JuryCriterion[], values: Record<string, number>): boolean =>
  criteria.every((c) => typeof values[c.id] === 'number');

/** The criterion that decides a tie first: the heaviest, the first of equally heavy ones. */
export function heaviestCriterion(criteria: readonly JuryCriterion[]): JuryCriterion | undefined {
  return criteria.reduce<JuryCriterion | undefined>(
    (best, c) => (!best || c.weight > best.weight ? c : best),
    undefined,
  );
}

/**
 * Ranks a class's cars by the mean of their judges' weighted totals (complete cards only). Equal
 * means: the higher mean in the heaviest criterion goes first; still equal, the head judge's choice
 * (`tieBreaks`, naming exactly the tied cars) decides; without one, the tie is returned when it
 * touches an awarded place, and the cars keep start-number order meanwhile. Means are compared as
 * exact fractions, never as rounded figures.
 */
export function rankJuryClass(
  criteria: readonly JuryCriterion[],
  places: number,
  cars: readonly JuryRankCar[],
  tieBreaks: readonly JuryTieBreak[] = [],
): { rows: JuryRankRow[]; ties: JuryTie[] } {
  const heavy = heaviestCriterion(criteria);
  const scored = cars.map((car) => {
    const cards = car.cards.filter((card) => isCompleteCard(criteria, card.values));
    const sum = cards.reduce((total, card) => total + weightedTotal(criteria, card.values), 0);
    const heavySum = heavy ? cards.reduce((total, card) => total + (card.values[heavy.id] ?? 0), 0) : 0;
    return { car, n: cards.length, sum, heavySum };
  });
  type Scored = (typeof scored)[number];
  // a/b against c/d with positive counts: a·d against c·b.
  const compare = (a: Scored, b: Scored) => b.sum * a.n - a.sum * b.n || b.heavySum * a.n - a.heavySum * b.n;
  const ranked = scored
    .filter((s) => s.n > 0)
    .sort((a, b) => compare(a, b) || a.car.startNumber - b.car.startNumber);
  const unranked = scored.filter((s) => s.n === 0).sort((a, b) => a.car.startNumber - b.car.startNumber);

  // Groups of equal cars, in order; a head judge's choice reorders a group it names exactly.
  const ordered: { entry: Scored; tieBreak: string | null }[] = [];
  const ties: JuryTie[] = [];
  for (let i = 0; i < ranked.length;) {
    let j = i + 1;
    while (j < ranked.length && compare(ranked[i]!, ranked[j]!) === 0) j += 1;
    const group = ranked.slice(i, j);
    if (group.length === 1) {
      ordered.push({ entry: group[0]!, tieBreak: null });
    } else {
      const numbers = group.map((s) => s.car.startNumber);
      const choice = tieBreaks.find(
        (tb) =>
          tb.startNumbers.length === numbers.length && numbers.every((n) => tb.startNumbers.includes(n)),
      );
      if (choice) {
        for (const n of choice.startNumbers) {
          ordered.push({ entry: group.find((s) => s.car.startNumber === n)!, tieBreak: choice.reason });
        }
      } else {
        if (i + 1 <= places) ties.push({ place: i + 1, startNumbers: numbers });
        for (const entry of group) ordered.push({ entry, tieBreak: null });
      }
    }
    i = j;
  }
  const tiedOpen = new Set(ties.flatMap((tie) => tie.startNumbers));
  const rows: JuryRankRow[] = ordered.map(({ entry, tieBreak }, index) => ({
    vehicleId: entry.car.vehicleId,
    startNumber: entry.car.startNumber,
    name: entry.car.name,
    judges: entry.n,
    mean: entry.sum / entry.n,
    heaviestMean: heavy ? entry.heavySum / entry.n : null,
    rank: index + 1,
    place: index < places && !tiedOpen.has(entry.car.startNumber) ? index + 1 : null,
    tieBreak,
  }));
  for (const entry of unranked) {
    rows.push({
      vehicleId: entry.car.vehicleId,
      startNumber: entry.car.startNumber,
      name: entry.car.name,
      judges: 0,
      mean: null,
      heaviestMean: null,
      rank: null,
      place: null,
      tieBreak: null,
    });
  }
  return { rows, ties };
}

/** Whether a car competes in a class of this scope. */
export function inJuryScope(
  scope: JuryScope,
  car: { parkingZone: string; tuningCategories: readonly string[]; year: number },
): boolean {
  if (scope.zones.length > 0 && !scope.zones.includes(car.parkingZone)) return false;
  if (scope.categories.length > 0 && !scope.categories.some((c) => car.tuningCategories.includes(c)))
    return false;
  if (scope.yearFrom !== null && car.year < scope.yearFrom) return false;
  if (scope.yearTo !== null && car.year > scope.yearTo) return false;
  return true;
}

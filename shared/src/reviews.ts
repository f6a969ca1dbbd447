import * as v from 'valibot';

/** Score categories: each scored as a whole number 0–10, weighted 1–10. */
export const REVIEW_LIMITS = {
  score: { min: 0, max: 10 },
  weight: { min: 1, max: 10 },
  categories: { min: 1, max: 8 },
  categoryName: 60,
  reviewersPerApplication: { min: 1, max: 5 },
  comment: 2000,
} as const;

export const REVIEW_MESSAGES = {
  notAssigned: 'Diese Bewerbung ist Ihnen nicht zur Prüfung zugewiesen.',
  alreadySubmitted: 'Sie haben Ihre Bewertung für diese Bewerbung bereits abgegeben.',
  notInReview: 'Diese Bewerbung ist nicht mehr in Prüfung.',
  scoreMissing: (name: string) => `Bitte bewerten Sie „${name}“.`,
  scoreRange: `Jede Bewertung ist eine ganze Zahl von ${REVIEW_LIMITS.score.min} bis ${REVIEW_LIMITS.score.max}.`,
  unknownCategory: 'Unbekannte Bewertungskategorie. Bitte laden Sie die Seite neu.',
  comment: `Die Anmerkung darf höchstens ${REVIEW_LIMITS.comment} Zeichen lang sein.`,
  categoryName: `Jede Kategorie braucht einen Namen mit höchstens ${REVIEW_LIMITS.categoryName} Zeichen.`,
  categoryNamesUnique: 'Zwei Kategorien dürfen nicht gleich heißen.',
  weight: `Die Gewichtung ist eine ganze Zahl von ${REVIEW_LIMITS.weight.min} bis ${REVIEW_LIMITS.weight.max}.`,
  categoryCount: `Es braucht ${REVIEW_LIMITS.categories.min} bis ${REVIEW_LIMITS.categories.max} Kategorien.`,
  reviewersPerApplication: `Pro Bewerbung prüfen ${REVIEW_LIMITS.reviewersPerApplication.min} bis ${REVIEW_LIMITS.reviewersPerApplication.max} Personen.`,
  categoriesFixed:
    'Nach der ersten abgegebenen Bewertung können Kategorien nur noch umbenannt oder neu gewichtet, nicht mehr hinzugefügt oder entfernt werden.',
  conflictSelf: 'Sie können sich nicht selbst als befangen eintragen.',
  conflictUnknown: 'Zu dieser E-Mail-Adresse gibt es kein bestätigtes Konto.',
  conflictExists: 'Diese Person steht bereits auf Ihrer Liste.',
  conflictEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  reassignNotReviewer: 'Die gewählte Person ist keine Prüferin und kein Prüfer.',
  reassignOwner: 'Niemand prüft die eigene Bewerbung.',
  reassignConflict: 'Die gewählte Person hat sich für diese Bewerbung als befangen erklärt.',
  reassignTaken: 'Die gewählte Person prüft diese Bewerbung bereits.',
  reassignDone: 'Eine abgegebene Bewertung wird nicht neu vergeben.',
  assignmentGone: 'Diese Zuweisung gibt es nicht mehr. Bitte laden Sie die Seite neu.',
  reassignExcluded:
    'Die gewählte Person hat diese Prüfung wegen einer Befangenheit abgegeben und bekommt sie nicht zurück.',
  /** No staff act on one's own application or on one of a person one declared bias towards (403). */
  conflictOwn:
    'Das ist Ihre eigene Bewerbung: Sie prüfen, bewerten und entscheiden sie nicht und sehen keine internen Notizen dazu.',
  conflictBias:
    'Sie haben sich gegenüber dieser Person als befangen erklärt: Sie prüfen, bewerten und entscheiden ihre Bewerbung nicht und sehen keine internen Notizen dazu.',
  /** Added for an admin: who decides instead. */
  conflictOtherAdmin: 'Darüber entscheidet ein anderer Admin.',
  conflictNoOtherAdmin:
    'Es gibt keinen anderen Admin, der darüber entscheiden kann: Bitte ernennen Sie im Team einen weiteren Admin.',
  /** Why a row of a bulk status change is left out. */
  conflictBulkOwn: 'Ausgelassen: Das ist Ihre eigene Bewerbung.',
  conflictBulkBias: 'Ausgelassen: Sie haben sich gegenüber dieser Person als befangen erklärt.',
  /** An application with fewer reviewers than the edition asks for (owners, biases and exclusions leave no one). */
  understaffed: 'unterbesetzt',
} as const;

/** Why a staff member may not act on an application: they own it, or declared a bias towards its owner. */
export type ReviewConflictKind = 'own' | 'bias';

const wholeScore = v.pipe(
  v.number(REVIEW_MESSAGES.scoreRange),
  v.integer(REVIEW_MESSAGES.scoreRange),
  v.minValue(REVIEW_LIMITS.score.min, REVIEW_MESSAGES.scoreRange),
  v.maxValue(REVIEW_LIMITS.score.max, REVIEW_MESSAGES.scoreRange),
);

/** POST /api/admin/vehicles/{id}/review: one score per category of the edition, an optional note. */
export const ReviewSubmissionSchema = v.object({
  scores: v.record(
    v.pipe(v.string(), v.uuid(REVIEW_MESSAGES.unknownCategory)),
    wholeScore,
    REVIEW_MESSAGES.scoreRange,
  ),
  comment: v.nullish(
    v.pipe(
      v.string(REVIEW_MESSAGES.comment),
      v.trim(),
      v.maxLength(REVIEW_LIMITS.comment, REVIEW_MESSAGES.comment),
    ),
  ),
});
export type ReviewSubmission = v.InferOutput<typeof ReviewSubmissionSchema>;

/** PUT /api/admin/reviews/settings: reviewers per application and the categories in order. */
export const ReviewSettingsSchema = v.object({
  reviewersPerApplication: v.pipe(
    v.number(REVIEW_MESSAGES.reviewersPerApplication),
    v.integer(REVIEW_MESSAGES.reviewersPerApplication),
    v.minValue(REVIEW_LIMITS.reviewersPerApplication.min, REVIEW_MESSAGES.reviewersPerApplication),
    v.maxValue(REVIEW_LIMITS.reviewersPerApplication.max, REVIEW_MESSAGES.reviewersPerApplication),
  ),
  categories: v.pipe(
    v.array(
      v.object({
        id: v.nullish(v.pipe(v.string(), v.uuid(REVIEW_MESSAGES.unknownCategory))),
        name: v.pipe(
          v.string(REVIEW_MESSAGES.categoryName),
          v.trim(),
          v.minLength(1, REVIEW_MESSAGES.categoryName),
          v.maxLength(REVIEW_LIMITS.categoryName, REVIEW_MESSAGES.categoryName),
        ),
        weight: v.pipe(
          v.number(REVIEW_MESSAGES.weight),
          v.integer(REVIEW_MESSAGES.weight),
          v.minValue(REVIEW_LIMITS.weight.min, REVIEW_MESSAGES.weight),
          v.maxValue(REVIEW_LIMITS.weight.max, REVIEW_MESSAGES.weight),
        ),
      }),
      REVIEW_MESSAGES.categoryCount,
    ),
    v.minLength(REVIEW_LIMITS.categories.min, REVIEW_MESSAGES.categoryCount),
    v.maxLength(REVIEW_LIMITS.categories.max, REVIEW_MESSAGES.categoryCount),
    v.check(
      (list) => new Set(list.map((c) => c.name.toLowerCase())).size === list.length,
      REVIEW_MESSAGES.categoryNamesUnique,
    ),
  ),
});
export type ReviewSettingsInput = v.InferOutput<typeof ReviewSettingsSchema>;

/** POST /api/admin/reviews/conflicts: a person the reviewer is biased towards, by their address. */
export const ReviewConflictSchema = v.object({
  email: v.pipe(
    v.string(REVIEW_MESSAGES.conflictEmail),
    v.trim(),
    v.email(REVIEW_MESSAGES.conflictEmail),
    v.maxLength(254, REVIEW_MESSAGES.conflictEmail),
  ),
});

/** POST /api/admin/vehicles/{id}/assignments: an open review moves from one reviewer to another. */
export const ReassignSchema = v.object({
  from: v.pipe(v.string(), v.uuid(REVIEW_MESSAGES.assignmentGone)),
  to: v.pipe(v.string(), v.uuid(REVIEW_MESSAGES.reassignNotReviewer)),
});

export interface ReviewCategory {
  id: string;
  name: string;
  weight: number;
}

export { formatScore, hideScoresIn, weightedScore } from './score.js';

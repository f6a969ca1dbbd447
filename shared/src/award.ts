import * as v from 'valibot';
import { CORRECTION_MESSAGES, CORRECTION_REASON } from './schemas/correction.js';
import { formatAtVenue } from './venue-time.js';

/** The visitors' award ('Publikumsliebling'): its texts, limits and inputs. */

/** Each confirmed address gives one vote each to at most this many different cars per edition. */
export const AWARD_VOTES_PER_VOTER = 3;

/** Where the voting stands: not opened yet, open, or closed (results final). */
export const AWARD_STATES = ['not_open', 'open', 'closed'] as const;
export type AwardState = (typeof AWARD_STATES)[number];

export const AWARD_STATE_LABELS: Record<AwardState, string> = {
  not_open: 'Noch nicht geöffnet',
  open: 'Abstimmung läuft',
  closed: 'Abstimmung beendet',
};

/** How the final totals name a car whose owner deleted the account. */
export const AWARD_DELETED_CAR = 'Gelöschtes Fahrzeug';

/** The award's title for an edition's year. */
export const awardTitle = (year: number) => `Publikumsliebling ${year}`;

/**
 * A cookie the page's script can read, naming nobody, set beside the voter cookie: only a browser with
 * it (or a signed-in one) has votes of its own to ask for.
 */
export const AWARD_VOTER_HINT_COOKIE = 'st_voter_hint';

export const AWARD_MESSAGES = {
  notOpen: 'Die Abstimmung zum Publikumsliebling hat noch nicht begonnen.',
  closed: 'Die Abstimmung zum Publikumsliebling ist beendet.',
  unknownCar: 'Ein Auto mit dieser Startnummer gibt es in dieser Ausgabe nicht.',
  tooMany: 'Du hast bereits drei Stimmen vergeben. Nimm eine zurück, um für dieses Auto zu stimmen.',
  /** A fourth car from one browser while its votes for the address wait for the confirmation. */
  waitingFull:
    'In diesem Browser warten schon drei Stimmen mit dieser Adresse auf die Bestätigung. Bestätige sie über den Link in unserer E-Mail.',
  /** The confirm page sent more cars than the address's three counted votes leave room for. */
  pickedTooMany: (free: number) =>
    free > 0
      ? `Es zählen höchstens drei Stimmen: Wähle ${free === 1 ? 'ein Auto' : `bis zu ${free} Autos`} aus.`
      : 'Deine drei Stimmen zählen schon. Nimm auf der Seite eines Autos eine zurück, um ein anderes zu wählen.',
  emailNeeded: 'Bitte gib deine E-Mail-Adresse an, damit wir deine Stimme bestätigen können.',
  email: 'Ungültige E-Mail-Adresse',
  startNumber: 'Bitte gib eine gültige Startnummer an.',
  counted: 'Danke! Deine Stimme zählt.',
  alreadyCounted: 'Für dieses Auto hast du schon gestimmt.',
  pending:
    'Fast geschafft! Bitte bestätige deine E-Mail-Adresse über den Link in unserer E-Mail, dann zählt deine Stimme.',
  withdrawn: 'Deine Stimme ist zurückgenommen.',
  confirmed: 'Deine E-Mail-Adresse ist bestätigt. Deine Stimmen zählen.',
  linkInvalid: 'Dieser Link ist ungültig oder abgelaufen.',
  deleted: 'Deine Stimmen und deine Adresse sind gelöscht.',
  tooManyAddresses:
    'Aus diesem Netzwerk wurden gerade sehr viele Adressen angegeben. Bitte versuche es später noch einmal.',
  busy: 'Gerade stimmen sehr viele gleichzeitig ab. Bitte versuche es in ein paar Sekunden noch einmal.',
  tooManyVotes: 'Aus diesem Netzwerk kommen gerade sehr viele Stimmen. Bitte versuche es gleich noch einmal.',
  opened: 'Die Abstimmung ist geöffnet.',
  closedNow: 'Die Abstimmung ist beendet; das Ergebnis steht fest.',
  alreadyClosed: 'Die Abstimmung ist bereits beendet.',
  closeFirst: 'Die Abstimmung ist noch offen.',
  moments: 'Das Ende muss nach dem Beginn liegen.',
  moment: 'Bitte gib einen Zeitpunkt im Format JJJJ-MM-TTThh:mm mit Zeitzone an.',
  saved: 'Die Zeitpunkte sind gespeichert.',
  noCertificate: 'Für dieses Auto gibt es keine Urkunde.',
  correctionVotes: 'Bitte gib die Stimmen als ganze Zahl von 0 bis 100000 an.',
  correctionNoResult: 'Es gibt noch kein Endergebnis, das sich korrigieren ließe.',
  correctionUnknownCar: 'Ein Auto mit dieser Startnummer steht nicht im Endergebnis.',
  correctionNothing: 'Die Korrektur ändert nichts: Das Auto hat bereits diese Stimmenzahl.',
  corrected: 'Das Endergebnis ist korrigiert; die Urkunden werden neu erstellt.',
} as const;

const email = v.pipe(
  v.string(AWARD_MESSAGES.email),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, AWARD_MESSAGES.email),
  v.email(AWARD_MESSAGES.email),
);

/** A vote: the car's start number, and the address while this browser has no confirmed one. */
export const AwardVoteSchema = v.object({
  startNumber: v.pipe(
    v.number(AWARD_MESSAGES.startNumber),
    v.integer(AWARD_MESSAGES.startNumber),
    v.minValue(1, AWARD_MESSAGES.startNumber),
    v.maxValue(100_000, AWARD_MESSAGES.startNumber),
  ),
  email: v.optional(email),
});
export type AwardVoteInput = v.InferOutput<typeof AwardVoteSchema>;

/**
 * The confirm page's button: the mailed link's token and the start numbers of the waiting votes the
 * person picked (without: those cast in the confirming browser).
 */
export const AwardConfirmSchema = v.object({
  token: v.pipe(v.string(AWARD_MESSAGES.linkInvalid), v.maxLength(300, AWARD_MESSAGES.linkInvalid)),
  startNumbers: v.optional(
    v.pipe(
      v.array(AwardVoteSchema.entries.startNumber, AWARD_MESSAGES.startNumber),
      v.maxLength(AWARD_VOTES_PER_VOTER, AWARD_MESSAGES.pickedTooMany(AWARD_VOTES_PER_VOTER)),
    ),
  ),
});

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const moment = v.nullable(
  v.pipe(v.string(AWARD_MESSAGES.moment), v.regex(ISO_MOMENT, AWARD_MESSAGES.moment)),
);

/**
 * An admin's correction of the final totals (POST /api/admin/award/{year}/correction): a car's
 * votes, 0 taking it out of the result, always with a reason; the ranks follow.
 */
export const AwardCorrectionSchema = v.object({
  startNumber: AwardVoteSchema.entries.startNumber,
  votes: v.pipe(
    v.number(AWARD_MESSAGES.correctionVotes),
    v.integer(AWARD_MESSAGES.correctionVotes),
    v.minValue(0, AWARD_MESSAGES.correctionVotes),
    v.maxValue(100_000, AWARD_MESSAGES.correctionVotes),
  ),
  reason: v.pipe(
    v.string(CORRECTION_MESSAGES.reason),
    v.trim(),
    v.minLength(CORRECTION_REASON.min, CORRECTION_MESSAGES.reason),
    v.maxLength(CORRECTION_REASON.max, CORRECTION_MESSAGES.reasonMax),
  ),
});
export type AwardCorrectionInput = v.InferOutput<typeof AwardCorrectionSchema>;

/** One correction of the final totals as the look back shows it (the reason stays with the admins). */
export interface AwardCorrectionNote {
  /** When it was made (ISO). */
  at: string;
  startNumber: number;
  from: number;
  to: number;
}

/** The look back's line about a correction of the final totals. */
export function awardCorrectionLine(note: AwardCorrectionNote): string {
  const day = formatAtVenue(new Date(note.at), 'longDate');
  const votes = (count: number) => (count === 1 ? '1 Stimme' : `${count} Stimmen`);
  return note.to === 0
    ? `Am ${day} nachträglich korrigiert: Startnummer ${note.startNumber} ist nicht mehr im Ergebnis (vorher ${votes(note.from)}).`
    : `Am ${day} nachträglich korrigiert: Startnummer ${note.startNumber} hat ${votes(note.to)} statt ${votes(note.from)}.`;
}

/** The admin's set moments; null removes one. */
export const AwardMomentsSchema = v.object({ opensAt: moment, closesAt: moment });
export type AwardMomentsInput = v.InferOutput<typeof AwardMomentsSchema>;

/** An edition's award moments as stored: set ones (the scheduler's) and those that happened. */
export interface AwardMoments {
  opensAt?: Date | null;
  closesAt?: Date | null;
  openedAt?: Date | null;
  closedAt?: Date | null;
}

/**
 * Where voting stands at `at`: open from its opening (an admin's, or the set moment) until its
 * closing (an admin's, the set moment, at the latest the meeting's end). The set moments count to
 * the second; the scheduler's tick only records them afterwards (and writes the final totals).
 */
export function awardStateAt(award: AwardMoments | null, edition: { endsAt: Date }, at: Date): AwardState {
  const due = award?.opensAt && award.opensAt <= at && award.opensAt < edition.endsAt;
  if (!award?.openedAt && !due) return 'not_open';
  if (award?.closedAt || at >= edition.endsAt || (award?.closesAt && at >= award.closesAt)) return 'closed';
  return 'open';
}

/**
 * The voting as anyone may see it at `at`: its state, the set opening, and its closing (the set one,
 * else the meeting's end once it opened).
 */
export function publicAwardAt(award: AwardMoments | null, edition: { endsAt: Date }, at: Date) {
  const state = awardStateAt(award, edition, at);
  const opened = Boolean(award?.openedAt) || state !== 'not_open';
  return {
    state,
    opensAt: award?.opensAt?.toISOString() ?? null,
    closesAt: (award?.closesAt ?? (opened ? edition.endsAt : null))?.toISOString() ?? null,
    maxVotes: AWARD_VOTES_PER_VOTER,
  };
}

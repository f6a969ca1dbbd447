import type { JuryCriterion, JuryRankRow, JuryScope, JuryTie } from '../jury.js';

/** A class's state: scoring, closed (ranked), and with the edition's results published. */
export type JuryClassState = 'open' | 'closed';

/** A judge as the admin's 'Jury' screen lists them. */
export interface JuryJudgeRow {
  userId: string;
  /** 'Vorname Nachname', or the address's local part when the account has no name. */
  name: string;
  email: string;
  classIds: string[];
}

/** An invitation to an address without an account yet (or not yet accepted). */
export interface JuryInviteView {
  id: string;
  email: string;
  classIds: string[];
  invitedAt: string;
}

/** A judge's bias declaration, as admins see it. */
export interface JuryRecusalView {
  judgeName: string;
  startNumber: number;
  car: string;
  declaredAt: string;
}

/** One missing card: this judge has not (fully) scored this car. */
export interface JuryMissing {
  judgeId: string;
  judgeName: string;
  startNumber: number;
  car: string;
}

/** The ranking stored at closing (and after corrections): the record. */
export interface JuryClassResult {
  rows: JuryRankRow[];
  closedAt: string;
  closedBy: string;
  /** Set when an admin closed with scores missing. */
  forceReason: string | null;
  tieBreaks: { startNumbers: number[]; reason: string }[];
}

export interface JuryCorrectionView {
  at: string;
  classId: string;
  className: string;
  /** Start numbers of the places before and after. */
  from: number[];
  to: number[];
  reason: string;
}

export interface JuryClassAdminView {
  id: string;
  name: string;
  position: number;
  scope: JuryScope;
  criteria: JuryCriterion[];
  places: number;
  judgeIds: string[];
  headJudgeId: string | null;
  state: JuryClassState;
  /** Cars competing (confirmed, in scope). */
  cars: number;
  /** Complete cards expected and entered. */
  cardsExpected: number;
  cardsDone: number;
  missing: JuryMissing[];
  /** Whether scores were entered: criteria cannot change then, the class cannot be deleted. */
  hasScores: boolean;
  result: JuryClassResult | null;
}

/** GET /api/admin/jury/:year */
export interface JuryAdminView {
  year: number;
  editionName: string;
  /** Until this moment classes close and results are published; then frozen. */
  closesBy: string;
  frozen: boolean;
  publishedAt: string | null;
  classes: JuryClassAdminView[];
  judges: JuryJudgeRow[];
  invites: JuryInviteView[];
  recusals: JuryRecusalView[];
  corrections: JuryCorrectionView[];
  /** The edition's parking zones and the tuning categories its confirmed cars name (for the scope). */
  zones: string[];
  categories: string[];
  /** The certificates' print file once rendered (/objects/…), null before. */
  certificatesUrl: string | null;
}

/** POST /api/admin/jury/:year/judges */
export interface JuryJudgeAdded {
  result: 'added' | 'invited';
  message: string;
}

/** A car on a judge's list: public facts only (its page's), and what the judge may do. */
export interface JuryCarView {
  vehicleId: string;
  startNumber: number;
  title: string;
  brand: string;
  model: string;
  year: number;
  parkingZone: string;
  /** A thumbnail of its first photo (with the media consent), else null. */
  imageUrl: string | null;
  /** The classes it competes in (of this judge's). */
  classIds: string[];
  /** Why this judge does not score it: their own car, or their bias. */
  excluded: 'own' | 'biased' | null;
}

/** A judge's own value of one criterion of one car, as the server holds it. */
export interface JuryScoreView {
  classId: string;
  startNumber: number;
  criterion: string;
  value: number;
  enteredAt: string;
}

export interface JuryJudgeClassView {
  id: string;
  name: string;
  criteria: JuryCriterion[];
  places: number;
  state: JuryClassState;
  isHead: boolean;
  /** Start numbers in walking order (zone, then start number). */
  cars: number[];
  /** Once closed: the ranking (every judge of the class sees it then). */
  result: JuryRankRow[] | null;
}

/** GET /api/jury: the signed-in judge's classes of the current edition, for the device to keep. */
export interface JuryJudgeView {
  year: number;
  editionName: string;
  judge: { id: string; firstName: string | null; lastName: string | null };
  /** Until when scores are taken at the latest (the jury's deadline). */
  closesBy: string;
  classes: JuryJudgeClassView[];
  cars: JuryCarView[];
  scores: JuryScoreView[];
  /** Start numbers this judge declared a bias towards. */
  recusals: number[];
}

/** An entry of a sync as the server decided it. */
export interface JuryEntryState {
  id: string;
  /** taken (counts, or was overtaken by a later entry), refused (never counts, with why). */
  result: 'taken' | 'refused';
  message: string | null;
}

/** POST /api/jury/sync */
export interface JurySyncResult {
  entries: JuryEntryState[];
  recusals: JuryEntryState[];
  /** The judge's values as the server now holds them (the last entered per criterion). */
  scores: JuryScoreView[];
  recusedStartNumbers: number[];
  syncedAt: string;
}

/** GET /api/jury/classes/:id: progress for the head judge (no one else's values before closing). */
export interface JuryClassProgress {
  id: string;
  name: string;
  state: JuryClassState;
  cardsExpected: number;
  cardsDone: number;
  missing: JuryMissing[];
  result: JuryClassResult | null;
}

/** 409 of a close: what blocks it. */
export interface JuryCloseRefusal {
  message: string;
  missing?: JuryMissing[];
  ties?: (JuryTie & { cars: { startNumber: number; name: string }[] })[];
}

/** One class's published places, as the public and the ceremony see them. */
export interface JuryClassPlaces {
  id: string;
  name: string;
  places: {
    place: number;
    startNumber: number;
    /** As the car page names it ('Marke Modell' or the car's name). */
    name: string;
    /** The car page's photo (with the media consent), else null. */
    imageUrl: string | null;
    /** Whether the car has a public page (confirmed, listed). */
    hasPage: boolean;
  }[];
}

/** GET /api/editions/:year/results: the published results (404 before). */
export interface JuryResults {
  edition: { year: number; name: string; startsAt: string; endsAt: string; place: string };
  publishedAt: string;
  classes: JuryClassPlaces[];
  /** The visitors' award's first three, as the look back shows it; null without a result. */
  award: { rank: number; startNumber: number; name: string; votes: number }[] | null;
}

/** GET /api/admin/jury/:year/ceremony: the same as published, for the projector (also before). */
export interface JuryCeremony {
  year: number;
  editionName: string;
  classes: JuryClassPlaces[];
  award: { rank: number; startNumber: number; name: string; votes: number }[] | null;
  /** Classes not closed yet: the ceremony shows them as missing. */
  openClasses: string[];
}

/** A published place of a car (car page, dashboard): '1. Platz – Bester Umbau 2026'. */
export interface JuryPlace {
  place: number;
  className: string;
  year: number;
}

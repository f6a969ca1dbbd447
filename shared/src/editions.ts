/** Editions: one meeting a year. Their states and the German texts about them. */
import * as v from 'valibot';
import { venueInstant } from './venue-time.js';

export const EDITION_STATES = ['preparation', 'open', 'closed', 'archived'] as const;
export type EditionState = (typeof EDITION_STATES)[number];

export const EDITION_STATE_LABELS: Record<EditionState, string> = {
  preparation: 'In Vorbereitung',
  open: 'Bewerbung offen',
  closed: 'Bewerbung geschlossen',
  archived: 'Archiviert',
};

/** An edition's years: the first meetings on record to well ahead. */
export const EDITION_YEARS = { min: 2000, max: 2100 } as const;

export const EDITION_MESSAGES = {
  exists: (year: number) => `Die Ausgabe ${year} gibt es bereits.`,
  unknown: (year: number) => `Eine Ausgabe ${year} gibt es nicht.`,
  year: `Das Jahr muss zwischen ${EDITION_YEARS.min} und ${EDITION_YEARS.max} liegen.`,
  startInYear: (year: number) => `Der Beginn muss im Jahr ${year} liegen.`,
  endAfterStart: 'Das Ende muss nach dem Beginn liegen.',
  deadlineBeforeStart: 'Der Bewerbungsschluss muss vor dem Beginn liegen.',
  deadlineFormat: 'Bitte gib den Bewerbungsschluss als Datum an (JJJJ-MM-TT).',
  dateFormat: 'Bitte gib Datum und Uhrzeit an (z. B. 2027-06-19T10:00:00+02:00).',
  archived: (year: number) => `Die Ausgabe ${year} ist archiviert und kann nicht mehr geändert werden.`,
  created: (name: string) => `${name} ist angelegt.`,
  opened: (name: string) => `Die Bewerbung für ${name} ist geöffnet.`,
  madeCurrent: (name: string) => `${name} ist jetzt die aktuelle Ausgabe.`,
  yearParam: 'Bitte wähle eine Ausgabe über ihr Jahr (z. B. 2027).',
  /** An edition that has not ended yet, or none of that year. */
  noLookBack: (year: number) => `Einen Rückblick auf ${year} gibt es noch nicht.`,
  /** A check-in code of another edition's invitation. */
  otherEdition: (name: string) => `Einladung gilt für ${name}`,
} as const;

/** `?edition=2026` of the staff screens: the edition to show (the current one when absent). */
export const EditionQuerySchema = v.object({
  edition: v.optional(
    v.pipe(
      v.string(EDITION_MESSAGES.yearParam),
      v.regex(/^\d{4}$/, EDITION_MESSAGES.yearParam),
      v.transform(Number),
    ),
  ),
});

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An optional moment (`at`) of the admin's edition actions: now when absent. */
const moment = v.optional(
  v.pipe(v.string(EDITION_MESSAGES.dateFormat), v.regex(ISO_MOMENT, EDITION_MESSAGES.dateFormat)),
);

/** POST /api/admin/editions: the next edition, from `from` (the newest when absent); dates a year later unless given. */
export const EditionCreateSchema = v.object({
  year: v.pipe(
    v.number(EDITION_MESSAGES.year),
    v.integer(EDITION_MESSAGES.year),
    v.minValue(EDITION_YEARS.min, EDITION_MESSAGES.year),
    v.maxValue(EDITION_YEARS.max, EDITION_MESSAGES.year),
  ),
  from: v.optional(v.pipe(v.number(EDITION_MESSAGES.year), v.integer(EDITION_MESSAGES.year))),
  start: moment,
  end: moment,
  deadline: v.optional(
    v.pipe(
      v.string(EDITION_MESSAGES.deadlineFormat),
      v.regex(/^\d{4}-\d{2}-\d{2}$/, EDITION_MESSAGES.deadlineFormat),
    ),
  ),
});

/** POST /api/admin/editions/:year/open and …/current: at a set moment, or now. */
export const EditionMomentSchema = v.object({ at: moment });

/** When applications close: 00:00 at the venue on the day after the deadline. */
export function applicationsCloseAt(deadline: string): Date {
  const [year, month, day] = deadline.split('-').map(Number) as [number, number, number];
  return venueInstant({ year, month, day: day + 1, hour: 0, minute: 0, second: 0 });
}

/** What an edition's state follows from. */
export interface EditionMoments {
  applicationsOpenAt: Date | null;
  applicationDeadline: string;
  /** Whether a later edition is current already. */
  superseded: boolean;
}

/** An edition's state at a moment. */
export function editionStateAt(edition: EditionMoments, at: Date): EditionState {
  if (edition.superseded) return 'archived';
  if (!edition.applicationsOpenAt || edition.applicationsOpenAt > at) return 'preparation';
  return at < applicationsCloseAt(edition.applicationDeadline) ? 'open' : 'closed';
}

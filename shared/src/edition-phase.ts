/**
 * An edition's phase at a moment and its application window: the calendar every screen and rule asks.
 * Apart from the editions' schemas, so a page that only needs the phase does not load them.
 */
import { venueMidnight } from './gate-window.js';
import { formatAtVenue, venueDateTime, venueInstant } from './venue-time.js';

/**
 * An edition's phases in the order they follow each other (`editionPhaseAt`): in preparation (no
 * opening moment set), applications not yet open, open, closed (deadline passed, meeting ahead),
 * meeting day, over (the meeting ended), archived (a later edition is current; counts as over).
 */
export const EDITION_PHASES = [
  'preparation',
  'scheduled',
  'open',
  'closed',
  'meetingDay',
  'over',
  'archived',
] as const;
export type EditionPhase = (typeof EDITION_PHASES)[number];

/** The admin's 'Ausgaben' badges. */
export const EDITION_PHASE_LABELS: Record<EditionPhase, string> = {
  preparation: 'In Vorbereitung',
  scheduled: 'Bewerbung angekündigt',
  open: 'Bewerbung offen',
  closed: 'Bewerbung geschlossen',
  meetingDay: 'Veranstaltungstag',
  over: 'Vorbei',
  archived: 'Archiviert',
};

/** Why an application cannot be sent now, in German. */
export const WINDOW_MESSAGES = {
  /** Submitting before the edition's applications open. */
  notYetOpen: (name: string, opensAt: string | null) =>
    `Die Bewerbung für ${name} ist noch nicht geöffnet.` +
    (opensAt ? ` Bewerbungen sind ab ${opensAt} möglich.` : ' Der Termin wird noch bekannt gegeben.'),
  /** Applying after the edition's deadline. */
  closed: (name: string, deadline: string) =>
    `Der Bewerbungsschluss für ${name} war am ${deadline}. Neue Bewerbungen sind nicht mehr möglich.`,
} as const;

/** When applications close: 00:00 at the venue on the day after the deadline. */
export function applicationsCloseAt(deadline: string): Date {
  const [year, month, day] = deadline.split('-').map(Number) as [number, number, number];
  return venueInstant({ year, month, day: day + 1, hour: 0, minute: 0, second: 0 });
}

/** What an edition's phase follows from. */
export interface EditionMoments {
  /** Null: no opening moment set (in preparation); undefined: open from the start (a configured event). */
  applicationsOpenAt: Date | null | undefined;
  /** 'YYYY-MM-DD' at the venue: applications close at the end of this day. */
  applicationDeadline: string;
  startsAt: Date;
  endsAt: Date;
  /** Whether a later edition is current already. */
  superseded: boolean;
}

/** When the meeting day begins: 00:00 at the venue on the day the meeting starts. */
export const meetingDayStartsAt = (startsAt: Date): Date => venueMidnight(startsAt);

/**
 * An edition's phase at a moment. Once a later edition is current it is 'archived', which counts as
 * over (`isOverPhase`) even were its end still ahead: making a later edition current closes the
 * earlier for good. Otherwise from `endsAt` on it is 'over'; from 00:00 at the venue on the meeting's
 * first day 'meetingDay'; before that the application window decides: no opening moment
 * 'preparation', opening ahead 'scheduled', then 'open' to the end of the deadline's day (venue
 * time), 'closed' after it.
 */
export function editionPhaseAt(edition: EditionMoments, at: Date): EditionPhase {
  if (edition.superseded) return 'archived';
  if (at >= edition.endsAt) return 'over';
  if (at >= meetingDayStartsAt(edition.startsAt)) return 'meetingDay';
  const opensAt = edition.applicationsOpenAt;
  if (opensAt === null) return 'preparation';
  if (opensAt && opensAt > at) return 'scheduled';
  return at < applicationsCloseAt(edition.applicationDeadline) ? 'open' : 'closed';
}

/**
 * The first moment after `at` at which `editionPhaseAt` may answer otherwise (the window opening or
 * closing, the meeting day beginning, the meeting ending); null when none lies ahead. A later edition
 * becoming current is not among them: that is the editions' calendar, not this one's.
 */
export function nextPhaseChangeAfter(edition: EditionMoments, at: Date): Date | null {
  if (edition.superseded) return null;
  const moments = [
    edition.applicationsOpenAt ?? undefined,
    applicationsCloseAt(edition.applicationDeadline),
    meetingDayStartsAt(edition.startsAt),
    edition.endsAt,
  ];
  let next: Date | null = null;
  for (const moment of moments) {
    if (moment && moment > at && (!next || moment < next)) next = moment;
  }
  return next;
}

/** Whether the edition is over ('over' or 'archived'): its record is frozen. */
export const isOverPhase = (phase: EditionPhase): boolean => phase === 'over' || phase === 'archived';

/** An edition's application window: open from `applicationsOpenAt` to the end of the deadline's day. */
export interface ApplicationWindow {
  /** 'Schlosstreffen 2027'. */
  name: string;
  /** Null: not opened yet; undefined: open from the start (an edition the configuration describes). */
  applicationsOpenAt?: Date | null;
  /** 'YYYY-MM-DD' at the venue. */
  applicationDeadline: string;
}

/**
 * Why an application cannot be sent to this edition at `at`, in German; null while the window is
 * open. Drafts may be started before the window opens (`forDraft`), not after it closed.
 */
export function applicationWindowRefusal(
  window: ApplicationWindow,
  at: Date,
  forDraft = false,
): string | null {
  if (at >= applicationsCloseAt(window.applicationDeadline)) {
    const deadline = new Date(`${window.applicationDeadline}T12:00:00Z`);
    return WINDOW_MESSAGES.closed(window.name, formatAtVenue(deadline, 'longDate'));
  }
  if (forDraft || window.applicationsOpenAt === undefined) return null;
  const opensAt = window.applicationsOpenAt;
  if (opensAt && opensAt <= at) return null;
  return WINDOW_MESSAGES.notYetOpen(window.name, opensAt ? venueDateTime(opensAt) : null);
}

/**
 * The current edition's event as the running processes read it: the API per request, the worker per
 * job, the scheduler per tick. The editions are read at most once per `ttlMs` (they change rarely;
 * an admin's change is seen everywhere within that time); a moment other than now (`--as-of`) reads
 * the same list.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { EDITION_MESSAGES, type EditionFee, type EventConfig } from '@schlosstreffen/shared';
import { notFound } from '../errors.js';
import { Edition } from '../model/edition.entity.js';

/** The edition current at `at`: the one whose `currentFrom` came last, else the earliest one. */
export function currentOf(editions: Edition[], at: Date): Edition {
  let current: Edition | undefined;
  for (const edition of editions) {
    if (!edition.currentFrom || edition.currentFrom > at) continue;
    const later =
      !current ||
      edition.currentFrom > current.currentFrom! ||
      (edition.currentFrom.getTime() === current.currentFrom!.getTime() && edition.year > current.year);
    if (later) current = edition;
  }
  current ??= [...editions].sort((a, b) => a.year - b.year)[0];
  if (!current) throw new Error('No edition: the database is not migrated');
  return current;
}

/** The meeting's name without the edition's year: 'Schlosstreffen 2026' → 'Schlosstreffen'. */
export const meetingName = (edition: Pick<Edition, 'name' | 'year'>) =>
  edition.name.replace(new RegExp(`\\s*${edition.year}$`), '') || edition.name;

/**
 * An edition's meeting as the rest of the platform reads it. Its name is the meeting's (the texts
 * name the year where they need it).
 */
export function eventOfEdition(edition: Edition): EditionEvent {
  return {
    edition: { id: edition.id, year: edition.year, name: edition.name },
    name: meetingName(edition),
    start: edition.startsAt,
    end: edition.endsAt,
    gateOpensAt: edition.gateOpensAt,
    place: edition.place,
    applicationDeadline: edition.applicationDeadline,
    applicationsOpenAt: edition.applicationsOpenAt ?? null,
    parkingZones: edition.parkingZones,
    invitations: {
      confirmDays: edition.confirmDays,
      cutoffDays: edition.cutoffDays,
      reminderDays: edition.reminderDays,
    },
    fee: edition.fee ?? null,
  };
}

/** Which edition an event is: what every query of one meeting names. */
export interface EditionRef {
  id: string;
  year: number;
  /** 'Schlosstreffen 2027'. */
  name: string;
}

/** An edition's meeting and the edition itself. */
export interface EditionEvent extends EventConfig {
  edition: EditionRef;
  /** When its applications open (null: not yet); undefined for a configured event, open from the start. */
  applicationsOpenAt?: Date | null;
  /** Its participation fee ('Teilnahmegebühr'); null or absent: none. */
  fee?: EditionFee | null;
}

/** Where an edition's event comes from: the editions in the database, or a fixed one (tests). */
export interface EventSource {
  /** The edition current at `at`. */
  at(at: Date): Promise<EditionEvent>;
  /** The edition with this id (the one an application belongs to). */
  of(editionId: string): Promise<EditionEvent>;
  /** The edition of this year (an admin screen's choice); 404 with a German message when there is none. */
  ofYear(year: number): Promise<EditionEvent>;
  /** Reads the editions again at the next call (after a change in this process). */
  invalidate?(): void;
  /** The newest edition before `year` (its look back is public: a later edition is current). */
  yearBefore?(year: number): Promise<number | null>;
}

/** The edition an admin screen asked for (`?edition=2026`), else the one current at `at`. */
export function chosenEdition(
  events: EventSource,
  year: number | undefined,
  at: Date,
): Promise<EditionEvent> {
  return year === undefined ? events.at(at) : events.ofYear(year);
}

/** A source that answers one event whatever the moment or id (tests that fix the meeting). */
export function fixedEvent(event: EditionEvent): EventSource {
  return {
    at: async () => event,
    of: async () => event,
    ofYear: async (year) => {
      if (year !== event.edition.year) throw notFound(EDITION_MESSAGES.unknown(year));
      return event;
    },
  };
}

export class EditionEvents implements EventSource {
  private cached?: { editions: Edition[]; readAt: number };

  constructor(
    private readonly em: EntityManager,
    private readonly ttlMs = 5_000,
  ) {}

  async at(at: Date): Promise<EditionEvent> {
    return eventOfEdition(currentOf(await this.editions(), at));
  }

  async of(editionId: string): Promise<EditionEvent> {
    const edition = await this.find((row) => row.id === editionId);
    if (!edition) throw new Error(`Unknown edition ${editionId}`);
    return eventOfEdition(edition);
  }

  async ofYear(year: number): Promise<EditionEvent> {
    const edition = await this.find((row) => row.year === year);
    if (!edition) throw notFound(EDITION_MESSAGES.unknown(year));
    return eventOfEdition(edition);
  }

  async yearBefore(year: number): Promise<number | null> {
    const earlier = (await this.editions()).filter((edition) => edition.year < year);
    return earlier.at(-1)?.year ?? null;
  }

  /** The edition that matches, read again when not among the kept ones (created in another process). */
  private async find(matches: (edition: Edition) => boolean): Promise<Edition | undefined> {
    return (await this.editions()).find(matches) ?? (await this.editions(true)).find(matches);
  }

  private async editions(fresh = false): Promise<Edition[]> {
    const now = Date.now();
    if (fresh || !this.cached || now - this.cached.readAt >= this.ttlMs) {
      const editions = await this.em.fork().find(Edition, {}, { orderBy: { year: 'asc' } });
      this.cached = { editions, readAt: now };
    }
    return this.cached.editions;
  }

  /** Reads the editions again at the next call (after a change in this process). */
  invalidate(): void {
    this.cached = undefined;
  }
}

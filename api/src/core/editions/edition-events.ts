/**
 * The current edition's event as the running processes read it: the API per request, the worker per
 * job, the scheduler per tick. The editions are read at most once per `ttlMs` (they change rarely;
 * an admin's change is seen everywhere within that time); a moment other than now (`--as-of`) reads
 * the same list.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventConfig } from '@schlosstreffen/shared';
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
export function eventOfEdition(edition: Edition): EventConfig {
  return {
    name: meetingName(edition),
    start: edition.startsAt,
    end: edition.endsAt,
    gateOpensAt: edition.gateOpensAt,
    place: edition.place,
    applicationDeadline: edition.applicationDeadline,
    parkingZones: edition.parkingZones,
    invitations: {
      confirmDays: edition.confirmDays,
      cutoffDays: edition.cutoffDays,
      reminderDays: edition.reminderDays,
    },
  };
}

/** Where the current event comes from: the editions in the database, or a fixed one (tests). */
export interface EventSource {
  at(at: Date): Promise<EventConfig>;
}

/** A source that answers one event whatever the moment (tests that fix the meeting). */
export function fixedEvent(event: EventConfig): EventSource {
  return { at: async () => event };
}

export class EditionEvents implements EventSource {
  private cached?: { editions: Edition[]; readAt: number };

  constructor(
    private readonly em: EntityManager,
    private readonly ttlMs = 5_000,
  ) {}

  async at(at: Date): Promise<EventConfig> {
    const now = Date.now();
    if (!this.cached || now - this.cached.readAt >= this.ttlMs) {
      const editions = await this.em.fork().find(Edition, {}, { orderBy: { year: 'asc' } });
      this.cached = { editions, readAt: now };
    }
    return eventOfEdition(currentOf(this.cached.editions, at));
  }

  /** Reads the editions again at the next call (after a change in this process). */
  invalidate(): void {
    this.cached = undefined;
  }
}

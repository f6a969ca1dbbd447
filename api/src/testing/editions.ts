import type { EntityManager } from '@mikro-orm/postgresql';
import { eventYear, type EventConfig } from '@schlosstreffen/shared';
import { currentEdition } from '../core/editions/editions.js';
import { Edition } from '../core/model/edition.entity.js';

/** The edition current now in a test's database (the first one unless the test made another current). */
export async function currentEditionId(em: EntityManager): Promise<string> {
  return (await currentEdition(em.fork(), new Date())).id;
}

/** The first edition of a test's database (the migration's). */
export async function firstEdition(em: EntityManager): Promise<Edition> {
  const [first] = await em.find(Edition, {}, { orderBy: { year: 'asc' }, limit: 1 });
  if (!first) throw new Error('No edition: the test database is not migrated');
  return first;
}

/**
 * Makes the first edition of a test's database the given event, as the migration would have made
 * it from these variables in a new database (the template was migrated with the defaults).
 */
export async function describeFirstEdition(em: EntityManager, event: EventConfig): Promise<Edition> {
  const first = await firstEdition(em);
  const year = eventYear(event.start);
  Object.assign(first, {
    year,
    name: `${event.name} ${year}`,
    startsAt: event.start,
    endsAt: event.end,
    gateOpensAt: event.gateOpensAt,
    place: event.place,
    applicationDeadline: event.applicationDeadline,
    parkingZones: event.parkingZones,
    confirmDays: event.invitations.confirmDays,
    cutoffDays: event.invitations.cutoffDays,
    reminderDays: event.invitations.reminderDays,
  });
  await em.flush();
  return first;
}

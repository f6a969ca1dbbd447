import type { EntityManager } from '@mikro-orm/postgresql';
import { eventYear, type EventConfig } from '@schlosstreffen/shared';
import { Edition } from '../core/model/edition.entity.js';

/**
 * Makes the first edition of a test's database the given event, as the migration would have made
 * it from these variables in a new database (the template was migrated with the defaults).
 */
export async function describeFirstEdition(em: EntityManager, event: EventConfig): Promise<Edition> {
  const [first] = await em.find(Edition, {}, { orderBy: { year: 'asc' }, limit: 1 });
  if (!first) throw new Error('No edition: the test database is not migrated');
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

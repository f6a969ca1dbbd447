import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from '../db/db.queries.js';

/** Every SQL statement of the visitor tickets: the edition's lock, counts, the next in line. */

/** Serialises issuing an edition's tickets (a place is counted and taken under it). */
export async function lockTicketsOf(em: EntityManager, editionId: string): Promise<void> {
  await selectRows(em, `select pg_advisory_xact_lock(hashtextextended('visitor-tickets:' || ?, 0))`, [
    editionId,
  ]);
}

export interface TicketCounts {
  issued: number;
  returned: number;
  waiting: number;
}

/** The edition's tickets by state. */
export async function ticketCounts(em: EntityManager, editionId: string): Promise<TicketCounts> {
  const [row] = await selectRows<TicketCounts>(
    em,
    `select count(*) filter (where state = 'issued')::int as issued,
            count(*) filter (where state = 'returned')::int as returned,
            count(*) filter (where state = 'waiting')::int as waiting
       from visitor_ticket where edition_id = ?`,
    [editionId],
  );
  return row ?? { issued: 0, returned: 0, waiting: 0 };
}

/** Tickets by state for several editions (the editions list). */
export function ticketCountsOf(
  em: EntityManager,
  editionIds: readonly string[],
): Promise<Array<TicketCounts & { edition_id: string }>> {
  if (editionIds.length === 0) return Promise.resolve([]);
  return selectRows(
    em,
    `select edition_id,
            count(*) filter (where state = 'issued')::int as issued,
            count(*) filter (where state = 'returned')::int as returned,
            count(*) filter (where state = 'waiting')::int as waiting
       from visitor_ticket where edition_id = any(?::uuid[]) group by edition_id`,
    [`{${editionIds.join(',')}}`],
  );
}

/** The next `limit` on the edition's waiting list, in the order of confirmation. */
export function nextWaiting(
  em: EntityManager,
  editionId: string,
  limit: number,
): Promise<Array<{ id: string; registration_id: string }>> {
  return selectRows(
    em,
    `select id, registration_id from visitor_ticket
      where edition_id = ? and state = 'waiting'
      order by queued_at, created_at, id limit ?`,
    [editionId, limit],
  );
}

/** The edition's confirmed registrations without a ticket row, in the order of confirmation. */
export function confirmedWithoutTicket(em: EntityManager, editionId: string): Promise<Array<{ id: string }>> {
  return selectRows(
    em,
    `select r.id from visitor_registration r
      where r.edition_id = ? and r.confirmed_at is not null and r.unsubscribed_at is null
        and not exists (select 1 from visitor_ticket t where t.registration_id = r.id)
      order by r.confirmed_at, r.created_at, r.id`,
    [editionId],
  );
}

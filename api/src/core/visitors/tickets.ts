import { createHash, randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isVisitorTicketCode, VISITOR_TICKET_MESSAGES } from '@schlosstreffen/shared';
import { conflict, invalid, notFound } from '../errors.js';
import { seal } from '../crypto/seal.js';
import { isEditionOver } from '../editions/frozen.js';
import { Edition } from '../model/edition.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { VisitorTicket } from '../model/visitor-ticket.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { confirmedWithoutTicket, lockTicketsOf, nextWaiting, ticketCounts } from './tickets.queries.js';

/**
 * Visitor tickets: with a capacity on the edition, a confirmed address gets a ticket while places
 * are left, else a place on the waiting list (in the order of confirmation). A ticket given back,
 * or its holder's registration deleted, goes to the next in line, once, under the edition's lock.
 */

export interface TicketLinks {
  publicUrl: string;
  secret: string;
  /** The unsubscribe links of the registration (its mails offer one-click unsubscribe). */
  unsubscribe: (registrationId: string) => { unsubscribeUrl: string; oneClickUrl: string };
}

/**
 * When a ticket's place on the gates' lists changed: the server's own clock, as the lists' cursors
 * are (not the app's, which tests and `--as-of` move).
 */
export const gateListClock = (): Date => new Date();

/** The ticket's secret: random, URL-safe, never all digits (a gate reads digits as a start number). */
export const newTicketSecret = (): string => `VT${randomBytes(24).toString('base64url')}`;
export const ticketSecretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The ticket page of a secret, and the page that gives it back. */
export const ticketUrl = (publicUrl: string, secret: string) => `${publicUrl}/besucherticket/${secret}`;
export const ticketReturnUrl = (publicUrl: string, secret: string) =>
  `${publicUrl}/besucherticket/${secret}/zurueckgeben`;

/** Issues a waiting or new ticket in the caller's transaction (the lock held) and queues its mail. */
async function issue(
  tx: EntityManager,
  ticket: VisitorTicket,
  registration: VisitorRegistration,
  at: Date,
  links: TicketLinks,
  movedUp: boolean,
): Promise<void> {
  const secret = newTicketSecret();
  Object.assign(ticket, {
    state: 'issued',
    secretHash: ticketSecretHash(secret),
    issuedAt: at,
    gateChangedAt: gateListClock(),
  });
  if (registration.unsubscribedAt) return;
  enqueue(tx, 'email.send', {
    template: 'visitor-ticket',
    to: registration.email,
    props: { firstName: registration.firstName, movedUp },
    sealed: seal(links.secret, {
      ticketSecret: secret,
      ticketUrl: ticketUrl(links.publicUrl, secret),
      returnUrl: ticketReturnUrl(links.publicUrl, secret),
      ...links.unsubscribe(registration.id),
    }),
  });
}

/**
 * Gives the edition's confirmed visitors their places, in the caller's transaction under the
 * edition's lock: first the waiting list moves up into free places, then every confirmed
 * registration without a ticket row gets a ticket while places are left, else a place on the
 * waiting list (with a mail saying so), all in the order of confirmation. Safe to run twice and at
 * once: the lock serialises it and what was given stays given. Returns how many tickets it issued.
 */
export async function allocateTickets(
  tx: EntityManager,
  editionId: string,
  at: Date,
  links: TicketLinks,
): Promise<number> {
  const edition = await tx.findOneOrFail(Edition, editionId);
  if (!edition.visitorTickets) return 0;
  await lockTicketsOf(tx, editionId);
  const { issued } = await ticketCounts(tx, editionId);
  let free = edition.visitorTickets.capacity - issued;
  let given = 0;
  for (const row of free > 0 ? await nextWaiting(tx, editionId, free) : []) {
    const ticket = await tx.findOneOrFail(VisitorTicket, row.id);
    const registration = await tx.findOneOrFail(VisitorRegistration, row.registration_id);
    await issue(tx, ticket, registration, at, links, true);
    free -= 1;
    given += 1;
  }
  for (const row of await confirmedWithoutTicket(tx, editionId)) {
    const registration = await tx.findOneOrFail(VisitorRegistration, row.id);
    const ticket = tx.create(VisitorTicket, {
      edition: editionId,
      registration,
      state: 'waiting',
      queuedAt: registration.confirmedAt ?? at,
    });
    if (free > 0) {
      await issue(tx, ticket, registration, at, links, false);
      free -= 1;
      given += 1;
    } else if (!registration.unsubscribedAt) {
      enqueue(tx, 'email.send', {
        template: 'visitor-ticket-waiting',
        to: registration.email,
        props: { firstName: registration.firstName },
        sealed: seal(links.secret, links.unsubscribe(registration.id)),
      });
    }
  }
  await tx.flush();
  return given;
}

/** The ticket of a secret (the ticket page's link), or null. */
export async function ticketOfSecret(
  em: EntityManager,
  secret: string,
): Promise<{ ticket: VisitorTicket; registration: VisitorRegistration; edition: Edition } | null> {
  if (!isVisitorTicketCode(secret)) return null;
  const ticket = await em.findOne(VisitorTicket, { secretHash: ticketSecretHash(secret) });
  if (!ticket) return null;
  const registration = await em.findOneOrFail(VisitorRegistration, ticket.registration.id);
  const edition = await em.findOneOrFail(Edition, ticket.edition.id);
  return { ticket, registration, edition };
}

/**
 * 'Ticket zurückgeben': the ticket stops admitting, its place goes to the next in line (once, also
 * when two are given back at the same moment), and a mail confirms it.
 */
export async function returnTicket(
  em: EntityManager,
  secret: string,
  at: Date,
  links: TicketLinks,
): Promise<void> {
  await em.fork().transactional(async (tx) => {
    const found = await ticketOfSecret(tx, secret);
    if (!found) throw notFound(VISITOR_TICKET_MESSAGES.ticketUnknown);
    // After the meeting the ticket stays as it was (the look back counts its scans).
    if (await isEditionOver(tx, found.edition.id, at))
      throw conflict(VISITOR_TICKET_MESSAGES.meetingOver(found.edition.name));
    await lockTicketsOf(tx, found.edition.id);
    const ticket = await tx.findOneOrFail(VisitorTicket, found.ticket.id, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      refresh: true,
    });
    if (ticket.state !== 'issued') throw conflict(VISITOR_TICKET_MESSAGES.alreadyReturned);
    Object.assign(ticket, { state: 'returned', returnedAt: at, gateChangedAt: gateListClock() });
    if (!found.registration.unsubscribedAt)
      enqueue(tx, 'email.send', {
        template: 'visitor-ticket-returned',
        to: found.registration.email,
        props: { firstName: found.registration.firstName },
        sealed: seal(links.secret, links.unsubscribe(found.registration.id)),
      });
    await tx.flush();
    await allocateTickets(tx, found.edition.id, at, links);
  });
}

/**
 * A registration about to be deleted (in the caller's transaction): its ticket stops admitting (the
 * row goes with the registration); the place it frees goes to the next in line by the allocation
 * job it queues (or the scheduler's next tick).
 */
export async function releaseTicketOf(tx: EntityManager, registrationId: string, at: Date): Promise<void> {
  const ticket = await tx.findOne(VisitorTicket, { registration: registrationId });
  if (!ticket) return;
  await lockTicketsOf(tx, ticket.edition.id);
  Object.assign(ticket, {
    state: 'returned',
    returnedAt: at,
    secretHash: null,
    gateChangedAt: gateListClock(),
  });
  enqueue(tx, 'visitor-tickets.allocate', { editionId: ticket.edition.id });
  await tx.flush();
}

/**
 * The edition's capacity was changed (in the caller's transaction, the edition saved): never fewer
 * places than tickets out (a German refusal); the places a raise frees go to the waiting list now.
 */
export async function visitorCapacityChanged(
  tx: EntityManager,
  edition: Edition,
  at: Date,
  links: TicketLinks,
): Promise<void> {
  if (!edition.visitorTickets) return;
  await lockTicketsOf(tx, edition.id);
  const { issued } = await ticketCounts(tx, edition.id);
  if (edition.visitorTickets.capacity < issued)
    throw invalid(VISITOR_TICKET_MESSAGES.capacityBelowIssued(issued));
  await allocateTickets(tx, edition.id, at, links);
}

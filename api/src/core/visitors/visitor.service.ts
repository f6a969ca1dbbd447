import { randomUUID } from 'node:crypto';
import type { EventSource } from '../editions/edition-events.js';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { VISITOR_NEXT_EDITION_CONSENT, type VisitorRegistrationInput } from '@schlosstreffen/shared';
import type { VisitorState } from '@schlosstreffen/shared/api';
import { createLinkToken, verifyLinkToken } from '../crypto/link-token.js';
import { seal } from '../crypto/seal.js';
import { enqueue } from '../outbox/outbox.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { journalErasure } from '../outbox/erasure-journal.js';
import { VisitorTicket } from '../model/visitor-ticket.entity.js';
import { Edition } from '../model/edition.entity.js';
import { releaseTicketOf, type TicketLinks } from './tickets.js';

/** What a visitor link does: confirm the sign-up, unsubscribe, or add the next edition's consent. */
export type VisitorLinkPurpose = 'confirm' | 'unsubscribe' | 'next-edition';

/** A repeated sign-up re-queues the confirmation mail (and the consent mail) at most this often. */
export const CONFIRMATION_RESEND_MS = 60 * 60 * 1000;

/** `<row id>.<HMAC-SHA256(purpose, id)>`: stable per row and purpose, unguessable without the secret. */
export const createVisitorToken = (secret: string, id: string, purpose: VisitorLinkPurpose): string =>
  createLinkToken(secret, 'visitor', purpose, id);

/** The row id a token was issued for, or null when the token is not ours for this purpose. */
export const verifyVisitorToken = (
  secret: string,
  token: unknown,
  purpose: VisitorLinkPurpose,
): string | null => verifyLinkToken(secret, 'visitor', purpose, token);

export function visitorState(row: Pick<VisitorRegistration, 'confirmedAt' | 'unsubscribedAt'>): VisitorState {
  if (row.unsubscribedAt) return 'unsubscribed';
  return row.confirmedAt ? 'confirmed' : 'pending';
}

/** Recipients of an edition's event updates: confirmed and not unsubscribed. */
export async function confirmedVisitorEmails(em: EntityManager, editionId: string): Promise<string[]> {
  const rows = await em.find(
    VisitorRegistration,
    { edition: editionId, confirmedAt: { $ne: null }, unsubscribedAt: null },
    { fields: ['email'], orderBy: { createdAt: 'asc' } },
  );
  return rows.map((row) => row.email);
}

/** Visitor pre-registration with double opt-in. Each use case owns its transaction. */
/**
 * An unsubscribe: the registration goes, nothing is kept about someone who no longer wants updates
 * (a second click finds it gone, which is the same outcome); its id goes to the erasure journal in
 * the same transaction, which a restore replays.
 */
export async function deleteVisitorRegistration(em: EntityManager, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    // A ticket stops admitting; its place goes to the next in line (now, or at the next tick).
    await releaseTicketOf(tx, id, new Date());
    if ((await tx.nativeDelete(VisitorRegistration, { id })) > 0)
      journalErasure(tx, { kind: 'visitor', subject: id });
  });
}

export class VisitorService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: {
      publicUrl: string;
      secret: string;
      /** A sign-up is for the edition current when it comes. */
      events: EventSource;
      onOutbox?: () => void;
      /** The app's clock (the real time when unset). */
      now?: () => Date;
    },
  ) {}

  /**
   * Records the sign-up for the current edition and queues the confirmation mail. A repeated address (any case) keeps its
   * row; an unsubscribed one starts over and needs confirming again. The caller learns nothing
   * about whether the address was known.
   */
  async signUp(input: VisitorRegistrationInput): Promise<void> {
    const { edition } = await this.options.events.at(this.options.now?.() ?? new Date());
    const run = () => this.em.transactional((em) => this.record(em, edition.id, input));
    let queued: boolean;
    try {
      queued = await run();
    } catch (error) {
      // A concurrent sign-up inserted the address first: the unique index decided, so it is a repeat.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      queued = await run();
    }
    if (queued) this.options.onOutbox?.();
  }

  /**
   * Sets confirmedAt once; returns the resulting state, or null for a bad token. With visitor
   * tickets on the edition, the confirmation takes a place (a ticket, or the waiting list).
   */
  async confirm(token: unknown): Promise<{ state: VisitorState; tickets: boolean } | null> {
    const id = verifyVisitorToken(this.options.secret, token, 'confirm');
    if (!id) return null;
    const outcome = await this.em.transactional(async (em) => {
      const row = await em.findOne(VisitorRegistration, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return null;
      // An old confirm link does not undo an unsubscribe; signing up again does.
      if (row.unsubscribedAt) return { state: visitorState(row), tickets: false };
      const now = this.options.now?.() ?? new Date();
      const first = !row.confirmedAt;
      row.confirmedAt ??= now;
      const edition = await em.findOneOrFail(Edition, row.edition.id);
      // With visitor tickets the place is given by a job in the order of confirmation (a ticket or
      // the waiting list, by mail): many confirmations at once never wait on one another here.
      if (edition.visitorTickets && first) enqueue(em, 'visitor-tickets.allocate', { editionId: edition.id });
      return { state: visitorState(row), tickets: !!edition.visitorTickets };
    });
    if (outcome?.state === 'confirmed') this.options.onOutbox?.();
    return outcome;
  }

  /**
   * Adds the consent to hear about the next edition (with its wording's version), through the link
   * mailed to the address; returns false for a bad token or a registration that is gone.
   */
  async consentToNextEdition(token: unknown): Promise<boolean> {
    const id = verifyVisitorToken(this.options.secret, token, 'next-edition');
    if (!id) return false;
    return this.em.transactional(async (em) => {
      const row = await em.findOne(VisitorRegistration, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row || row.unsubscribedAt) return false;
      if (!row.nextEditionConsentAt) em.assign(row, nextEditionConsent(this.options.now?.() ?? new Date()));
      return true;
    });
  }

  /**
   * Stops the mails; returns false for a bad token. A registration holding a ticket keeps it (and
   * its place) and only stops hearing from us; any other goes, as before tickets.
   */
  async unsubscribe(token: unknown): Promise<boolean> {
    const id = verifyVisitorToken(this.options.secret, token, 'unsubscribe');
    if (!id) return false;
    const kept = await this.em.transactional(async (em) => {
      const ticket = await em.findOne(VisitorTicket, { registration: id, state: 'issued' });
      if (!ticket) return false;
      const row = await em.findOneOrFail(VisitorRegistration, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      row.unsubscribedAt ??= this.options.now?.() ?? new Date();
      return true;
    });
    if (!kept) await deleteVisitorRegistration(this.em, id);
    return true;
  }

  /** The edition's registrations, newest first. */
  list(editionId: string): Promise<VisitorRegistration[]> {
    return this.em.find(
      VisitorRegistration,
      { edition: editionId },
      { orderBy: { createdAt: 'desc', id: 'asc' } },
    );
  }

  /**
   * Inserts or refreshes the row; returns whether a mail was queued. The next edition's consent
   * comes with the sign-up that creates the row (its confirmation link confirms both); a repeated
   * sign-up, which anyone can send, never adds it: it mails the address the link that does.
   */
  private async record(
    em: EntityManager,
    editionId: string,
    input: VisitorRegistrationInput,
  ): Promise<boolean> {
    const now = new Date();
    const details = { firstName: input.firstName, lastName: input.lastName, phone: input.phone ?? null };
    const existing = await em.findOne(
      VisitorRegistration,
      { edition: editionId, email: input.email },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!existing) {
      const row = em.create(VisitorRegistration, {
        id: randomUUID(),
        edition: editionId,
        email: input.email,
        ...details,
        ...(input.nextEdition ? nextEditionConsent(now) : {}),
        confirmationSentAt: now,
      });
      this.queueConfirmation(em, row);
      return true;
    }
    if (existing.unsubscribedAt) {
      // Signing up again after unsubscribing starts over, as a new sign-up; the details of a live
      // row stay untouched.
      em.assign(existing, {
        ...details,
        ...(input.nextEdition
          ? nextEditionConsent(now)
          : { nextEditionConsentAt: null, nextEditionConsentVersion: null }),
        confirmedAt: null,
        unsubscribedAt: null,
      });
    }
    let queued = false;
    if (input.nextEdition && !existing.nextEditionConsentAt) {
      const lastAsked = existing.nextEditionConsentMailedAt?.getTime() ?? 0;
      if (now.getTime() - lastAsked >= CONFIRMATION_RESEND_MS) {
        existing.nextEditionConsentMailedAt = now;
        this.queueConsentLink(em, existing);
        queued = true;
      }
    }
    if (existing.confirmedAt) return queued;
    const lastSent = existing.confirmationSentAt?.getTime() ?? 0;
    if (now.getTime() - lastSent < CONFIRMATION_RESEND_MS) return queued;
    existing.confirmationSentAt = now;
    this.queueConfirmation(em, existing);
    return true;
  }

  /** The confirmation mail: to an address nobody has confirmed, so it names nobody. */
  private queueConfirmation(em: EntityManager, row: VisitorRegistration): void {
    const { publicUrl, secret } = this.options;
    const token = (purpose: VisitorLinkPurpose) => createVisitorToken(secret, row.id, purpose);
    enqueue(em, 'email.send', {
      template: 'visitor-confirmation',
      to: row.email,
      props: {},
      sealed: seal(secret, visitorLinks(publicUrl, token('confirm'), token('unsubscribe'))),
    });
  }

  /** The link that adds the next edition's consent: anyone can ask for it, so it names nobody. */
  private queueConsentLink(em: EntityManager, row: VisitorRegistration): void {
    const { publicUrl, secret } = this.options;
    enqueue(em, 'email.send', {
      template: 'visitor-next-edition-consent',
      to: row.email,
      props: {},
      sealed: seal(secret, {
        consentUrl: `${publicUrl}/besucher/naechstes-treffen?token=${createVisitorToken(secret, row.id, 'next-edition')}`,
        ...unsubscribeLinks(publicUrl, createVisitorToken(secret, row.id, 'unsubscribe')),
      }),
    });
  }
}

/** The consent to hear about the next edition, recorded with its wording's version. */
const nextEditionConsent = (at: Date) => ({
  nextEditionConsentAt: at,
  nextEditionConsentVersion: VISITOR_NEXT_EDITION_CONSENT.version,
});

/**
 * The links of a visitor mail: pages with a button (a plain GET, as link scanners send, changes
 * nothing) and the API address mail clients POST to for one-click unsubscribe (RFC 8058).
 */
export function visitorLinks(publicUrl: string, confirmToken: string, unsubscribeToken: string) {
  return {
    confirmUrl: `${publicUrl}/besucher/bestaetigen?token=${confirmToken}`,
    ...unsubscribeLinks(publicUrl, unsubscribeToken),
  };
}

/** The unsubscribe links of a mail to a confirmed visitor (updates, the next edition's notice). */
export function unsubscribeLinks(publicUrl: string, unsubscribeToken: string) {
  return {
    unsubscribeUrl: `${publicUrl}/besucher/abmelden?token=${unsubscribeToken}`,
    oneClickUrl: `${publicUrl}/api/visitor-registrations/unsubscribe?token=${unsubscribeToken}`,
  };
}

/** The links of ticket mails: the ticket page, giving back, and the registration's unsubscribe. */
export function ticketLinksOf(publicUrl: string, secret: string): TicketLinks {
  return {
    publicUrl,
    secret,
    unsubscribe: (registrationId) =>
      unsubscribeLinks(publicUrl, createVisitorToken(secret, registrationId, 'unsubscribe')),
  };
}

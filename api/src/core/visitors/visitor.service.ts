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

export type VisitorLinkPurpose = 'confirm' | 'unsubscribe';

/** A repeated sign-up re-queues the confirmation mail at most this often. */
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

  /** Sets confirmedAt once; returns the resulting state, or null for a bad token. */
  async confirm(token: unknown): Promise<VisitorState | null> {
    const id = verifyVisitorToken(this.options.secret, token, 'confirm');
    if (!id) return null;
    return this.em.transactional(async (em) => {
      const row = await em.findOne(VisitorRegistration, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return null;
      // An old confirm link does not undo an unsubscribe; signing up again does.
      if (!row.unsubscribedAt) row.confirmedAt ??= new Date();
      return visitorState(row);
    });
  }

  /** Sets unsubscribedAt once; returns false for a bad token. */
  async unsubscribe(token: unknown): Promise<boolean> {
    const id = verifyVisitorToken(this.options.secret, token, 'unsubscribe');
    if (!id) return false;
    // The registration goes: nothing is kept about someone who no longer wants updates. A second
    // click finds it gone, which is the same outcome.
    await this.em.nativeDelete(VisitorRegistration, { id });
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

  /** Inserts or refreshes the row; returns whether a confirmation mail was queued. */
  private async record(
    em: EntityManager,
    editionId: string,
    input: VisitorRegistrationInput,
  ): Promise<boolean> {
    const now = new Date();
    const details = { firstName: input.firstName, lastName: input.lastName, phone: input.phone ?? null };
    // The consent to hear about the next edition, recorded with the wording's version.
    const consent = input.nextEdition
      ? { nextEditionConsentAt: now, nextEditionConsentVersion: VISITOR_NEXT_EDITION_CONSENT.version }
      : {};
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
        ...consent,
        confirmationSentAt: now,
      });
      this.queueConfirmation(em, row);
      return true;
    }
    if (existing.unsubscribedAt) {
      // Signing up again after unsubscribing starts over; the details of a live row stay untouched.
      em.assign(existing, { ...details, confirmedAt: null, unsubscribedAt: null });
    }
    // Given again (or for the first time) with a repeated sign-up; never taken back by one.
    if (input.nextEdition && !existing.nextEditionConsentAt) em.assign(existing, consent);
    if (existing.confirmedAt) return false;
    const lastSent = existing.confirmationSentAt?.getTime() ?? 0;
    if (now.getTime() - lastSent < CONFIRMATION_RESEND_MS) return false;
    existing.confirmationSentAt = now;
    this.queueConfirmation(em, existing);
    return true;
  }

  private queueConfirmation(em: EntityManager, row: VisitorRegistration): void {
    const { publicUrl, secret } = this.options;
    const token = (purpose: VisitorLinkPurpose) => createVisitorToken(secret, row.id, purpose);
    enqueue(em, 'email.send', {
      template: 'visitor-confirmation',
      to: row.email,
      props: { firstName: row.firstName },
      sealed: seal(secret, visitorLinks(publicUrl, token('confirm'), token('unsubscribe'))),
    });
  }
}

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

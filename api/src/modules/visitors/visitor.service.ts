import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  EVENT_TIMEZONE,
  VISITOR_CSV_HEADER,
  VISITOR_STATE_LABELS,
  type VisitorRegistrationInput,
} from '@schlosstreffen/shared';
import { createLinkToken, verifyLinkToken } from '../../lib/link-token.js';
import { seal } from '../../lib/seal.js';
import { enqueue } from '../../outbox/outbox.js';
import { VisitorRegistration } from './visitor-registration.entity.js';

export type VisitorLinkPurpose = 'confirm' | 'unsubscribe';
export type VisitorState = 'pending' | 'confirmed' | 'unsubscribed';

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

export interface VisitorView {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
  state: VisitorState;
}

export interface VisitorList {
  visitors: VisitorView[];
  counts: { total: number } & Record<VisitorState, number>;
}

/** Recipients of event updates: confirmed and not unsubscribed. */
export async function confirmedVisitorEmails(em: EntityManager): Promise<string[]> {
  const rows = await em.find(
    VisitorRegistration,
    { confirmedAt: { $ne: null }, unsubscribedAt: null },
    { fields: ['email'], orderBy: { createdAt: 'asc' } },
  );
  return rows.map((row) => row.email);
}

/** Visitor pre-registration with double opt-in. Each use case owns its transaction. */
export class VisitorService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: { publicUrl: string; secret: string; onOutbox?: () => void },
  ) {}

  /**
   * Records the sign-up and queues the confirmation mail. A repeated address (any case) keeps its
   * row; an unsubscribed one starts over and needs confirming again. The caller learns nothing
   * about whether the address was known.
   */
  async signUp(input: VisitorRegistrationInput): Promise<void> {
    const run = () => this.em.transactional((em) => this.record(em, input));
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
    return this.em.transactional(async (em) => {
      const row = await em.findOne(VisitorRegistration, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return false;
      row.unsubscribedAt ??= new Date();
      return true;
    });
  }

  /** Every registration, newest first, with counts per state. */
  async list(): Promise<VisitorList> {
    const rows = await this.em.find(VisitorRegistration, {}, { orderBy: { createdAt: 'desc', id: 'asc' } });
    const visitors = rows.map((row): VisitorView => ({
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phone: row.phone ?? null,
      createdAt: row.createdAt,
      confirmedAt: row.confirmedAt ?? null,
      unsubscribedAt: row.unsubscribedAt ?? null,
      state: visitorState(row),
    }));
    const counts = { total: visitors.length, pending: 0, confirmed: 0, unsubscribed: 0 };
    for (const visitor of visitors) counts[visitor.state] += 1;
    return { visitors, counts };
  }

  /** Inserts or refreshes the row; returns whether a confirmation mail was queued. */
  private async record(em: EntityManager, input: VisitorRegistrationInput): Promise<boolean> {
    const now = new Date();
    const details = { firstName: input.firstName, lastName: input.lastName, phone: input.phone ?? null };
    const existing = await em.findOne(
      VisitorRegistration,
      { email: input.email },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!existing) {
      const row = em.create(VisitorRegistration, {
        id: randomUUID(),
        email: input.email,
        ...details,
        confirmationSentAt: now,
      });
      this.queueConfirmation(em, row);
      return true;
    }
    if (existing.unsubscribedAt) {
      // Signing up again after unsubscribing starts over; the details of a live row stay untouched.
      em.assign(existing, { ...details, confirmedAt: null, unsubscribedAt: null });
    }
    if (existing.confirmedAt) return false;
    const lastSent = existing.confirmationSentAt?.getTime() ?? 0;
    if (now.getTime() - lastSent < CONFIRMATION_RESEND_MS) return false;
    existing.confirmationSentAt = now;
    this.queueConfirmation(em, existing);
    return true;
  }

  private queueConfirmation(em: EntityManager, row: VisitorRegistration): void {
    const { publicUrl, secret } = this.options;
    const link = (purpose: VisitorLinkPurpose) =>
      `${publicUrl}/api/visitor-registrations/${purpose}?token=${createVisitorToken(secret, row.id, purpose)}`;
    enqueue(em, 'email.send', {
      template: 'visitor-confirmation',
      to: row.email,
      props: { firstName: row.firstName },
      sealed: seal(secret, { confirmUrl: link('confirm'), unsubscribeUrl: link('unsubscribe') }),
    });
  }
}

const dateTime = new Intl.DateTimeFormat('de-DE', {
  timeZone: EVENT_TIMEZONE,
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A quoted CSV field; a leading = + - @ tab or CR is neutralised so spreadsheets never run it. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** UTF-8 BOM, semicolons and CRLF: what German Excel opens without an import dialog. */
export function visitorsToCsv(visitors: VisitorView[]): string {
  const rows = [
    [...VISITOR_CSV_HEADER],
    ...visitors.map((visitor) => [
      visitor.firstName,
      visitor.lastName,
      visitor.email,
      visitor.phone ?? '',
      dateTime.format(visitor.createdAt),
      visitor.confirmedAt ? dateTime.format(visitor.confirmedAt) : '',
      VISITOR_STATE_LABELS[visitor.state],
    ]),
  ];
  return `\uFEFF${rows.map((row) => row.map(csvField).join(';')).join('\r\n')}\r\n`;
}

/** YYYY-MM-DD of the instant at the venue. */
export function venueDate(date: Date): string {
  const parts = new Intl.DateTimeFormat('de-DE', {
    timeZone: EVENT_TIMEZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

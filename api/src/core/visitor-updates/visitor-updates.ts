import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { VISITOR_UPDATE_MESSAGES, type VisitorUpdateDraft } from '@schlosstreffen/shared';
import type { User } from '../model/user.entity.js';
import { conflict, notFound } from '../errors.js';
import { enqueue } from '../outbox/outbox.js';
import { createVisitorToken, unsubscribeLinks } from '../visitors/visitor.service.js';
import { VisitorUpdate } from '../model/visitor-update.entity.js';
import {
  countLiveVisitors,
  insertRecipients,
  lockNextRecipient,
  markRecipientFailed,
  markRecipientSending,
  markRecipientSent,
  markRecipientUnsubscribed,
  markUpdateSent,
  recipientStates,
  storePreview,
  subjectAndBody,
} from './visitor-updates.queries.js';
import type { PendingAudit } from '../pending-audit.js';

/** Per-recipient states of an update, counted. */
export interface RecipientCounts {
  pending: number;
  sent: number;
  failed: number;
  unsubscribed: number;
}

export interface VisitorUpdateView {
  update: VisitorUpdate;
  counts: RecipientCounts;
}

const EMPTY_COUNTS: RecipientCounts = { pending: 0, sent: 0, failed: 0, unsubscribed: 0 };

async function countsOf(em: EntityManager, ids: string[]): Promise<Map<string, RecipientCounts>> {
  const counts = new Map<string, RecipientCounts>();
  if (!ids.length) return counts;
  const rows = await recipientStates(em, ids);
  for (const row of rows) {
    const entry = counts.get(row.update_id) ?? { ...EMPTY_COUNTS };
    // A recipient being sent right now still counts as open.
    const key = row.state === 'sending' ? 'pending' : (row.state as keyof RecipientCounts);
    entry[key] += Number(row.n);
    counts.set(row.update_id, entry);
  }
  return counts;
}

/** The edition's confirmed visitors who did not unsubscribe: who an update would go to now. */
export function currentRecipientCount(em: EntityManager, editionId: string): Promise<number> {
  return countLiveVisitors(em, editionId);
}

/** The admin's 'Besucher-Updates': drafts with a preview, a test to oneself, sending, history. */
export class VisitorUpdateService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: { publicUrl: string; secret: string; onOutbox?: () => void },
  ) {}

  /** The edition's updates, newest first, with their recipients' states counted. */
  async list(editionId: string): Promise<VisitorUpdateView[]> {
    const updates = await this.em.find(
      VisitorUpdate,
      { edition: editionId },
      { orderBy: { createdAt: 'desc', id: 'asc' } },
    );
    const counts = await countsOf(
      this.em,
      updates.map((update) => update.id),
    );
    return updates.map((update) => ({ update, counts: counts.get(update.id) ?? { ...EMPTY_COUNTS } }));
  }

  async get(id: string): Promise<VisitorUpdateView> {
    const update = await this.em.findOne(VisitorUpdate, { id }, { refresh: true });
    if (!update) throw notFound(VISITOR_UPDATE_MESSAGES.notFound);
    const counts = await countsOf(this.em, [id]);
    return { update, counts: counts.get(id) ?? { ...EMPTY_COUNTS } };
  }

  /** A new draft to the edition's visitors; its preview is rendered by a job with the real mail template. */
  async create(
    admin: User,
    draft: VisitorUpdateDraft,
    editionId: string,
    audit?: PendingAudit,
  ): Promise<VisitorUpdate> {
    const update = await this.em.transactional(async (em) => {
      const row = em.create(VisitorUpdate, {
        id: randomUUID(),
        edition: editionId,
        ...draft,
        createdBy: admin.id,
      });
      enqueue(em, 'visitor-update.preview', { updateId: row.id, revision: 1 });
      audit?.record(em, { target: row.id });
      return row;
    });
    this.options.onOutbox?.();
    return update;
  }

  /** Changes a draft (a new revision, a new preview); sent updates stay as they went out. */
  async edit(id: string, draft: VisitorUpdateDraft, audit?: PendingAudit): Promise<VisitorUpdate> {
    const update = await this.em.transactional(async (em) => {
      const row = await this.lockDraft(em, id);
      row.subject = draft.subject;
      row.body = draft.body;
      row.revision += 1;
      enqueue(em, 'visitor-update.preview', { updateId: row.id, revision: row.revision });
      audit?.record(em);
      return row;
    });
    this.options.onOutbox?.();
    return update;
  }

  /** The draft as a test mail to the admin's own address (its unsubscribe link does nothing). */
  async sendTest(id: string, admin: User): Promise<void> {
    const { update } = await this.get(id);
    const links = unsubscribeLinks(this.options.publicUrl, 'test');
    await this.em.transactional(async (em) => {
      enqueue(em, 'email.send', {
        template: 'visitor-update',
        to: admin.email,
        props: {
          firstName: admin.firstName ?? 'Team',
          subject: update.subject,
          body: update.body,
          unsubscribeUrl: links.unsubscribeUrl,
          oneClickUrl: links.oneClickUrl,
          test: true,
        },
      });
    });
    this.options.onOutbox?.();
  }

  /**
   * Starts sending: the recipients are fixed now (confirmed, not unsubscribed), one row each, and
   * the send job is queued in the same transaction. A second start finds the update no longer a draft.
   */
  async start(id: string, audit?: PendingAudit): Promise<VisitorUpdateView> {
    await this.em.transactional(async (em) => {
      const row = await this.lockDraft(em, id);
      const inserted = await insertRecipients(em, row.id);
      if (!inserted.length) throw conflict(VISITOR_UPDATE_MESSAGES.noRecipients);
      row.status = 'sending';
      row.startedAt = new Date();
      row.total = inserted.length;
      enqueue(em, 'visitor-update.send', { updateId: row.id });
      audit?.record(em, { details: { recipients: inserted.length } });
    });
    this.options.onOutbox?.();
    return this.get(id);
  }

  private async lockDraft(em: EntityManager, id: string): Promise<VisitorUpdate> {
    const row = await em.findOne(VisitorUpdate, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) throw notFound(VISITOR_UPDATE_MESSAGES.notFound);
    if (row.status !== 'draft') throw conflict(VISITOR_UPDATE_MESSAGES.notDraft);
    return row;
  }
}

// The worker's side.

/** Stores a rendered preview when it still belongs to the draft's current revision. */
export function recordPreview(
  em: EntityManager,
  updateId: string,
  revision: number,
  html: string,
): Promise<boolean> {
  return storePreview(em, updateId, revision, html);
}

/** What the send job needs of an update. */
export async function updateForSending(
  em: EntityManager,
  updateId: string,
): Promise<{ subject: string; body: string; status: string; editionId: string } | null> {
  return (await subjectAndBody(em, updateId)) ?? null;
}

export interface ClaimedRecipient {
  id: string;
  /** Null when the visitor unsubscribed meanwhile (the registration is gone or marked). */
  visitor: { email: string; firstName: string; unsubscribeUrl: string; oneClickUrl: string } | null;
}

/**
 * Takes the next recipient to send to and marks it 'sending' (committed before the mail goes).
 * Recipients left 'sending' by a run that died (claimed before this run started) are taken again:
 * their mail may have gone out, and goes again under the same Message-ID.
 */
export async function claimNextRecipient(
  em: EntityManager,
  updateId: string,
  runStartedAt: Date,
  links: { publicUrl: string; secret: string },
): Promise<ClaimedRecipient | null> {
  return em.fork().transactional(async (tx) => {
    const row = await lockNextRecipient(tx, updateId, runStartedAt);
    if (!row) return null;
    if (!row.registration_id || !row.email || !row.live) {
      await markRecipientUnsubscribed(tx, row.id);
      return { id: row.id, visitor: null };
    }
    await markRecipientSending(tx, row.id);
    const token = createVisitorToken(links.secret, row.registration_id, 'unsubscribe');
    const { unsubscribeUrl, oneClickUrl } = unsubscribeLinks(links.publicUrl, token);
    return {
      id: row.id,
      visitor: { email: row.email, firstName: row.first_name ?? '', unsubscribeUrl, oneClickUrl },
    };
  });
}

/** Tries per recipient before it counts as failed. */
export const MAX_SEND_ATTEMPTS = 3;

/**
 * After the send: sent; or, after a failure, back in line until its tries are used up, then failed.
 * Returns the recipient's state now.
 */
export async function recordRecipient(
  em: EntityManager,
  recipientId: string,
  outcome: { state: 'sent' } | { state: 'failed'; error: string },
): Promise<'sent' | 'failed' | 'pending'> {
  if (outcome.state === 'sent') {
    await markRecipientSent(em, recipientId);
    return 'sent';
  }
  return markRecipientFailed(em, recipientId, outcome.error.slice(0, 500), MAX_SEND_ATTEMPTS);
}

/** Marks the update sent when no recipient is open any more; returns the counts. */
export async function finishIfDone(em: EntityManager, updateId: string): Promise<RecipientCounts> {
  const counts = (await countsOf(em, [updateId])).get(updateId) ?? { ...EMPTY_COUNTS };
  if (counts.pending === 0) await markUpdateSent(em, updateId);
  return counts;
}

/**
 * The public texts per edition ('Texte'): the landing page's introduction, the event details text
 * and the FAQ, edited by admins; a part never edited (or reset) is null and the web client shows its
 * default text. A new edition starts with its template edition's texts.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  deadlineMonthOf,
  personLabel,
  PRIVACY_MESSAGES,
  renderPublicTexts,
  type PublicTexts,
  type PublicTextsInput,
} from '@schlosstreffen/shared';
import type { PublicTextsView } from '@schlosstreffen/shared/api';
import { Edition } from '../model/edition.entity.js';
import { PublicText } from '../model/public-text.entity.js';
import { User } from '../model/user.entity.js';
import type { PendingAudit } from '../pending-audit.js';

const DEFAULTS: PublicTexts = { introduction: null, eventDetails: null, faq: null };

const textsOf = (row: PublicText | null): PublicTexts =>
  row
    ? {
        introduction: row.introduction ?? null,
        eventDetails: row.eventDetails ?? null,
        faq: row.faq?.map(({ question, answer }) => ({ question, answer })) ?? null,
      }
    : { ...DEFAULTS };

/** An edition's texts (null parts: the default text). */
export async function publicTexts(em: EntityManager, editionId: string): Promise<PublicTexts> {
  return textsOf(await em.fork().findOne(PublicText, { editionId }));
}

/** The admin's view: the texts and their last change, with the editor's name now. */
export async function publicTextsView(em: EntityManager, editionId: string): Promise<PublicTextsView> {
  const edition = await em.findOneOrFail(Edition, editionId);
  const row = await em.findOne(PublicText, { editionId }, { refresh: true });
  const editor = row?.updatedBy ? await em.findOne(User, { id: row.updatedBy }) : null;
  return {
    edition: { year: edition.year, applicationDeadline: edition.applicationDeadline },
    texts: textsOf(row),
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row ? (editor ? personLabel(editor) : PRIVACY_MESSAGES.deletedAccount) : null,
  };
}

/** Sets the parts given (null: back to the default text); the others stay. */
export async function savePublicTexts(
  em: EntityManager,
  editionId: string,
  input: PublicTextsInput,
  editorId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<PublicTextsView> {
  await em.transactional(async (tx) => {
    // The edition's row is the lock: two saves of one edition's texts follow each other.
    await tx.findOneOrFail(Edition, editionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const row =
      (await tx.findOne(PublicText, { editionId })) ??
      tx.create(PublicText, { editionId, ...DEFAULTS, updatedBy: editorId, updatedAt: at });
    if (input.introduction !== undefined) row.introduction = input.introduction;
    if (input.eventDetails !== undefined) row.eventDetails = input.eventDetails;
    if (input.faq !== undefined) row.faq = input.faq;
    row.updatedBy = editorId;
    row.updatedAt = at;
    audit?.record(tx);
  });
  return publicTextsView(em.fork(), editionId);
}

/**
 * The texts the public pages show, per edition, formatted (shared's `renderPublicTexts`: the HTML
 * the landing page injects), read at most once per `ttlMs` (like the editions): every page's site
 * config carries them. A save in this process is seen at once.
 */
export class PublicTextsReader {
  private readonly kept = new Map<string, { texts: Promise<PublicTexts>; readAt: number }>();

  constructor(
    private readonly em: EntityManager,
    private readonly ttlMs = 5_000,
  ) {}

  /** The edition's texts, formatted, with its deadline (`YYYY-MM-DD`) filled in. */
  of(editionId: string, deadline: string): Promise<PublicTexts> {
    const key = `${editionId}:${deadline}`;
    const now = Date.now();
    const kept = this.kept.get(key);
    if (kept && now - kept.readAt < this.ttlMs) return kept.texts;
    const texts = publicTexts(this.em, editionId).then((read) =>
      renderPublicTexts(read, deadlineMonthOf(deadline)),
    );
    this.kept.set(key, { texts, readAt: now });
    texts.catch(() => this.kept.delete(key));
    return texts;
  }

  invalidate(): void {
    this.kept.clear();
  }
}

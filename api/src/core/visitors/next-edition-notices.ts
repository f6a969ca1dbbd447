/**
 * 'Auch über das nächste Schlosstreffen informieren': once a later edition is on the landing page
 * (and its meeting lies ahead), each confirmed visitor of an earlier edition who gave that consent
 * gets one mail through the outbox, saying when and where and how to sign up for it. The sign-up is
 * then marked; from there on it ends with its own edition's retention.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { seal } from '../crypto/seal.js';
import type { EditionEvent } from '../editions/edition-events.js';
import { Edition } from '../model/edition.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { createVisitorToken, unsubscribeLinks } from './visitor.service.js';

export interface NoticeConfig {
  /** Base of the links in the mail. */
  publicUrl: string;
  /** Signs the unsubscribe link and seals the links in the outbox. */
  secret: string;
}

/** Queues the mails due at `asOf`; returns how many. Running it again queues none. */
export async function noticeNextEdition(
  em: EntityManager,
  config: NoticeConfig,
  /** The edition current at `asOf` (the scheduler has read it already). */
  current: EditionEvent,
  asOf: Date,
): Promise<number> {
  if (current.start <= asOf) return 0;
  return em.fork().transactional(async (tx) => {
    const earlier = await tx.find(Edition, { year: { $lt: current.edition.year } }, { fields: ['id'] });
    if (!earlier.length) return 0;
    const rows = await tx.find(
      VisitorRegistration,
      {
        edition: { $in: earlier.map((edition) => edition.id) },
        nextEditionConsentAt: { $ne: null },
        nextEditionNotifiedAt: null,
        confirmedAt: { $ne: null },
        unsubscribedAt: null,
      },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    if (!rows.length) return 0;
    // Who signed up for the current edition already needs no mail about it.
    const signedUp = new Set(
      (
        await tx.find(
          VisitorRegistration,
          { edition: current.edition.id, email: { $in: rows.map((row) => row.email) } },
          { fields: ['email'] },
        )
      ).map((row) => row.email),
    );
    let queued = 0;
    for (const row of rows) {
      row.nextEditionNotifiedAt = asOf;
      if (signedUp.has(row.email)) continue;
      const links = unsubscribeLinks(
        config.publicUrl,
        createVisitorToken(config.secret, row.id, 'unsubscribe'),
      );
      enqueue(tx, 'email.send', {
        template: 'visitor-next-edition',
        to: row.email,
        props: { firstName: row.firstName, signUpUrl: `${config.publicUrl}/visitor-registration` },
        sealed: seal(config.secret, links),
      });
      queued++;
    }
    return queued;
  });
}

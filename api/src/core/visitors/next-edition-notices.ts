/**
 * 'Auch über das nächste Schlosstreffen informieren': once a later edition is on the landing page
 * (and its meeting lies ahead), each confirmed visitor of an earlier edition who gave that consent
 * gets one mail through the outbox, saying when and where and how to sign up for it. The sign-up is
 * then marked; from there on it ends with its own edition's retention.
 */
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { seal } from '../crypto/seal.js';
import { currentEdition } from '../editions/editions.js';
import { Edition } from '../model/edition.entity.js';
import { VisitorRegistration } from '../model/visitor-registration.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { createVisitorToken, visitorLinks } from './visitor.service.js';

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
  asOf: Date,
): Promise<number> {
  return em.fork().transactional(async (tx) => {
    const current = await currentEdition(tx, asOf);
    if (current.startsAt <= asOf) return 0;
    const earlier = await tx.find(Edition, { year: { $lt: current.year } }, { fields: ['id'] });
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
      (await tx.find(VisitorRegistration, { edition: current.id }, { fields: ['email'] })).map(
        (row) => row.email,
      ),
    );
    let queued = 0;
    for (const row of rows) {
      row.nextEditionNotifiedAt = asOf;
      if (signedUp.has(row.email)) continue;
      const token = (purpose: 'confirm' | 'unsubscribe') =>
        createVisitorToken(config.secret, row.id, purpose);
      const { unsubscribeUrl, oneClickUrl } = visitorLinks(
        config.publicUrl,
        token('confirm'),
        token('unsubscribe'),
      );
      enqueue(tx, 'email.send', {
        template: 'visitor-next-edition',
        to: row.email,
        props: { firstName: row.firstName, signUpUrl: `${config.publicUrl}/visitor-registration` },
        sealed: seal(config.secret, { unsubscribeUrl, oneClickUrl }),
      });
      queued++;
    }
    return queued;
  });
}

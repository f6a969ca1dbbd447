import { defineEntity, p } from '@mikro-orm/core';
import { mailboxOf } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';

const VisitorRegistrationSchema = defineEntity({
  name: 'VisitorRegistration',
  tableName: 'visitor_registration',
  uniques: [{ properties: ['edition', 'email'] }],
  indexes: [{ properties: ['edition', 'mailbox'] }],
  properties: {
    id: uuidPk(),
    /** The meeting the visitor signed up for. */
    edition: () => p.manyToOne(Edition),
    firstName: p.string().length(100),
    lastName: p.string().length(100),
    /** Stored lower-cased; one row per address and edition. */
    email: p.string().length(254),
    /** The mailbox the address reaches (`mailboxOf`): how the visitors' award finds a confirmed sign-up. */
    mailbox: p
      .string()
      .length(254)
      .onCreate((row: { email: string }) => mailboxOf(row.email)),
    phone: p.string().length(40).nullable(),
    /** Set when the confirm link of the double opt-in mail is followed; only confirmed rows receive mail. */
    confirmedAt: p.datetime().nullable(),
    unsubscribedAt: p.datetime().nullable(),
    /** When the last confirmation mail was queued (repeat sign-ups resend it at most hourly). */
    confirmationSentAt: p.datetime().nullable(),
    /** The consent to hear about the next edition: when, in which wording (its version). */
    nextEditionConsentAt: p.datetime().nullable(),
    nextEditionConsentVersion: p.string().length(20).nullable(),
    /**
     * When the link that adds that consent was last mailed (a repeated sign-up with the tick asks
     * for it at most hourly); only the link adds it.
     */
    nextEditionConsentMailedAt: p.datetime().nullable(),
    /** When the one mail about the next edition was queued; the sign-up then ends with its edition. */
    nextEditionNotifiedAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});

export class VisitorRegistration extends VisitorRegistrationSchema.class {}
VisitorRegistrationSchema.setClass(VisitorRegistration);

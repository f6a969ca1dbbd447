import { defineEntity, p } from '@mikro-orm/core';

/**
 * An address whose mailbox an SMTP server refused for good (unknown or disabled: core/emails/
 * smtp-refusal.ts), with the server's answer. Mails to it are held back until it is confirmed again
 * or its account changes it.
 */
const MailBounceSchema = defineEntity({
  name: 'MailBounce',
  tableName: 'mail_bounce',
  properties: {
    /** Lower case. */
    address: p.string().length(254).primary(),
    reason: p.text(),
    bouncedAt: p.datetime(),
  },
});

export class MailBounce extends MailBounceSchema.class {}
MailBounceSchema.setClass(MailBounce);

import { defineEntity, p } from '@mikro-orm/core';

/**
 * An address an SMTP server refused for good (5xx on RCPT or DATA), with the server's answer.
 * Mails to it are held back until it is confirmed again or its account changes it.
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

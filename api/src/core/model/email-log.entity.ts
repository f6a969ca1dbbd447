import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, updatedAt, uuidPk } from './columns.js';

/**
 * sent: the SMTP server accepted it; deferred: it answered 4xx or could not be reached (retried);
 * refused: it answered 5xx for good (`lastError` holds its answer); held: not sent, the address
 * bounced before; failed: the mail could not be rendered, or its last attempt was deferred too.
 */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'deferred', 'refused', 'held'] as const;

/** One row per email job; `jobId` makes a retried or re-delivered job send at most once. */
const EmailLogSchema = defineEntity({
  name: 'EmailLog',
  tableName: 'email_log',
  properties: {
    id: uuidPk(),
    jobId: p.string().length(100).unique(),
    recipient: p.string().length(254).index(),
    template: p.string().length(60),
    subject: p.string().length(300).nullable(),
    status: p.enum(EMAIL_STATUSES).default('pending'),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    messageId: p.string().nullable(),
    sentAt: p.datetime().nullable(),
    /** The application the mail is about (status mails, invitation, reminders); null for others. */
    vehicleId: p.uuid().nullable().index(),
    /** The outbox row id of this mail's resend ('Erneut senden'), once asked for. */
    resendJobId: p.string().length(100).nullable(),
    /** The version of the mail's text it was rendered with (0: the default text); null: not rendered, or a draft's test. */
    templateVersion: p.integer().nullable(),
    /** The edition whose text that is. */
    templateEditionId: p.uuid().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export class EmailLog extends EmailLogSchema.class {}
EmailLogSchema.setClass(EmailLog);

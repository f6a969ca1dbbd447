import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, updatedAt, uuidPk } from './columns.js';

export const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const;

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export class EmailLog extends EmailLogSchema.class {}
EmailLogSchema.setClass(EmailLog);

import { defineEntity, p } from '@mikro-orm/core';
import { VISITOR_UPDATE_STATUSES } from '@schlosstreffen/shared';
import { createdAt, updatedAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';

/** An event update to the visitors ('Besucher-Updates'): written as a draft, then sent once. */
const VisitorUpdateSchema = defineEntity({
  name: 'VisitorUpdate',
  tableName: 'visitor_update',
  properties: {
    id: uuidPk(),
    /** Sent to the visitors of this edition. */
    edition: () => p.manyToOne(Edition).index(),
    subject: p.string().length(200),
    body: p.text(),
    status: p.enum(VISITOR_UPDATE_STATUSES).default('draft'),
    /** Counts the draft's edits; the preview is current when it was rendered from this revision. */
    revision: p.integer().default(1),
    previewHtml: p.text().nullable(),
    previewRevision: p.integer().nullable(),
    /** The admin who wrote it; null once that account is gone. */
    createdBy: p.uuid().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    /** Recipients when sending started. */
    total: p.integer().default(0),
  },
});

export class VisitorUpdate extends VisitorUpdateSchema.class {}
VisitorUpdateSchema.setClass(VisitorUpdate);

/**
 * One recipient of an update and its state. The registration is named by id only and the link goes
 * when the registration does (unsubscribe, retention, account deletion).
 */
const VisitorUpdateRecipientSchema = defineEntity({
  name: 'VisitorUpdateRecipient',
  tableName: 'visitor_update_recipient',
  properties: {
    id: uuidPk(),
    updateId: p.uuid(),
    registrationId: p.uuid().nullable(),
    state: p.enum(['pending', 'sending', 'sent', 'failed', 'unsubscribed'] as const).default('pending'),
    attempts: p.integer().default(0),
    claimedAt: p.datetime().nullable(),
    sentAt: p.datetime().nullable(),
    error: p.text().nullable(),
  },
});

export class VisitorUpdateRecipient extends VisitorUpdateRecipientSchema.class {}
VisitorUpdateRecipientSchema.setClass(VisitorUpdateRecipient);

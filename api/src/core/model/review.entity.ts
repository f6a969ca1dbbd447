import { defineEntity, p } from '@mikro-orm/core';
import { ROLES, STATUS_EVENT_KINDS, VEHICLE_STATUSES } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';

/**
 * The status log (the spec's Review entity): one row per status change or consent withdrawal,
 * append-only. The database refuses UPDATE, DELETE and TRUNCATE on it (except clearing the internal
 * comment of a deleted person's vehicle), so it has no foreign keys whose actions would modify rows.
 * People are named by id only; names are resolved when the log is read ('Gelöschtes Konto' once
 * gone). Only system events carry a name of their own.
 */
const ReviewSchema = defineEntity({
  name: 'Review',
  tableName: 'review',
  properties: {
    id: uuidPk(),
    vehicleId: p.uuid().index(),
    /** The acting user (owner, reviewer or admin); null only for system events. */
    reviewerId: p.uuid().nullable(),
    actorRole: p.enum([...ROLES, 'system'] as const),
    /** The system's name for system events; null for people. */
    actorName: p.string().length(220).nullable(),
    kind: p.enum(STATUS_EVENT_KINDS).default('status'),
    commentInternal: p.text().nullable(),
    score: p.integer().nullable(),
    oldStatus: p.enum(VEHICLE_STATUSES).nullable(),
    newStatus: p.enum(VEHICLE_STATUSES),
    createdAt: createdAt(),
  },
});

export class Review extends ReviewSchema.class {}
ReviewSchema.setClass(Review);

import { defineEntity, p } from '@mikro-orm/core';
import { ROLES, VEHICLE_STATUSES } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from '../../db/columns.js';

/**
 * The status log (the spec's Review entity): one row per status change, append-only. The database
 * refuses UPDATE, DELETE and TRUNCATE on it, so it has no foreign keys whose actions would modify
 * rows; the actor's name is kept as written so the history outlives deleted accounts.
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
    actorName: p.string().length(220),
    commentInternal: p.text().nullable(),
    score: p.integer().nullable(),
    oldStatus: p.enum(VEHICLE_STATUSES).nullable(),
    newStatus: p.enum(VEHICLE_STATUSES),
    createdAt: createdAt(),
  },
});

export class Review extends ReviewSchema.class {}
ReviewSchema.setClass(Review);

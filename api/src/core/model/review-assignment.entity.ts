import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from './columns.js';

/** A score category of an edition: scored 0–10 by each reviewer, weighted in the application's score. */
const ReviewCategorySchema = defineEntity({
  name: 'ReviewCategory',
  tableName: 'review_category',
  properties: {
    id: uuidPk(),
    editionId: p.uuid(),
    name: p.string().length(60),
    weight: p.integer(),
    position: p.integer(),
    createdAt: createdAt(),
  },
});
export class ReviewCategory extends ReviewCategorySchema.class {}
ReviewCategorySchema.setClass(ReviewCategory);

/**
 * One reviewer assigned to one application; holds that reviewer's scores once submitted. The
 * reviewer goes with their account (null: 'Gelöschtes Konto'); the assignment goes with the application.
 */
const ReviewAssignmentSchema = defineEntity({
  name: 'ReviewAssignment',
  tableName: 'review_assignment',
  properties: {
    id: uuidPk(),
    editionId: p.uuid(),
    vehicleId: p.uuid(),
    reviewerId: p.uuid().nullable(),
    /** The admin who assigned by hand; null when the balancing did. */
    assignedBy: p.uuid().nullable(),
    assignedAt: p.datetime(),
    /** Per category id, 0–10; null until submitted. */
    scores: p.json<Record<string, number>>().nullable(),
    /** The weighted score under the edition's current weights. */
    total: p.decimal('number').precision(6).scale(3).nullable(),
    comment: p.text().nullable(),
    submittedAt: p.datetime().nullable(),
  },
});
export class ReviewAssignment extends ReviewAssignmentSchema.class {}
ReviewAssignmentSchema.setClass(ReviewAssignment);

/** 'Befangenheit': a reviewer is never assigned an application of this person. */
const ReviewConflictSchema = defineEntity({
  name: 'ReviewConflict',
  tableName: 'review_conflict',
  properties: {
    id: uuidPk(),
    reviewerId: p.uuid(),
    personId: p.uuid(),
    createdAt: createdAt(),
  },
});
export class ReviewConflict extends ReviewConflictSchema.class {}
ReviewConflictSchema.setClass(ReviewConflict);

/**
 * An open review that a bias ended: the reviewer never gets this application back, also after
 * withdrawing the bias. Goes with the application and with the reviewer's account.
 */
const ReviewExclusionSchema = defineEntity({
  name: 'ReviewExclusion',
  tableName: 'review_exclusion',
  properties: {
    id: uuidPk(),
    editionId: p.uuid(),
    vehicleId: p.uuid(),
    reviewerId: p.uuid(),
    createdAt: createdAt(),
  },
});
export class ReviewExclusion extends ReviewExclusionSchema.class {}
ReviewExclusionSchema.setClass(ReviewExclusion);

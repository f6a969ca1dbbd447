import { defineEntity, p } from '@mikro-orm/core';
import type { JuryCriterion, JuryRankRow, JuryScope } from '@schlosstreffen/shared';
import type { JuryCorrectionView } from '@schlosstreffen/shared/api';
import { createdAt, updatedAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { User } from './user.entity.js';
import { Vehicle } from './vehicle.entity.js';

/** An admin's correction of a class's places after the results became part of the record. */
export type JuryCorrection = Omit<JuryCorrectionView, 'className'>;

/**
 * The jury of an edition as a whole: whether its results are published, the corrections made since,
 * and the certificates' print file. A change here is a public input ('jury'): the results page,
 * the look back and the cars' pages are rendered anew.
 */
const JurySchema = defineEntity({
  name: 'Jury',
  tableName: 'jury',
  properties: {
    edition: () => p.oneToOne(Edition).owner().primary().deleteRule('cascade'),
    publishedAt: p.datetime().nullable(),
    publishedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    corrections: p.json<JuryCorrection[]>().nullable(),
    /** The certificates' print file, once rendered for the current results. */
    certificatesKey: p.string().length(200).nullable(),
    /** Raised by every publication and correction: the certificates follow it. */
    version: p.integer().default(0),
    updatedAt: updatedAt(),
  },
});
export class Jury extends JurySchema.class {}
JurySchema.setClass(Jury);

/** The ranking at closing, as the record keeps it (means, places; no judge is named). */
export interface JuryClassRecord {
  rows: JuryRankRow[];
  tieBreaks: { startNumbers: number[]; reason: string }[];
}

/** A judged class of an edition: which cars compete, its scorecard, its places, its judges. */
const JuryClassSchema = defineEntity({
  name: 'JuryClass',
  tableName: 'jury_class',
  uniques: [{ properties: ['edition', 'name'] }],
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    name: p.string().length(60),
    position: p.integer(),
    scope: p.json<JuryScope>(),
    criteria: p.json<JuryCriterion[]>(),
    places: p.integer(),
    headJudge: () => p.manyToOne(User).nullable().deleteRule('set null'),
    closedAt: p.datetime().nullable(),
    closedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    /** An admin closed with scores missing: why. */
    forceReason: p.text().nullable(),
    record: p.json<JuryClassRecord>().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});
export class JuryClass extends JuryClassSchema.class {}
JuryClassSchema.setClass(JuryClass);

/** An account made a judge of an edition (by an admin, an accepted invitation or the CLI). */
const JuryJudgeSchema = defineEntity({
  name: 'JuryJudge',
  tableName: 'jury_judge',
  uniques: [{ properties: ['edition', 'user'] }],
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    createdAt: createdAt(),
  },
});
export class JuryJudge extends JuryJudgeSchema.class {}
JuryJudgeSchema.setClass(JuryJudge);

/** A judge of one class: they score every car of it they neither own nor declared a bias towards. */
const JuryClassJudgeSchema = defineEntity({
  name: 'JuryClassJudge',
  tableName: 'jury_class_judge',
  properties: {
    juryClass: () => p.manyToOne(JuryClass).primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade').index(),
  },
});
export class JuryClassJudge extends JuryClassJudgeSchema.class {}
JuryClassJudgeSchema.setClass(JuryClassJudge);

/**
 * A judge's value for one criterion of one car: the one entered last (by the device's moment,
 * bounded) counts; `entryId` names that entry, so a resend of it changes nothing.
 */
const JuryScoreSchema = defineEntity({
  name: 'JuryScore',
  tableName: 'jury_score',
  properties: {
    juryClass: () => p.manyToOne(JuryClass).primary().deleteRule('cascade'),
    judge: () => p.manyToOne(User).primary().deleteRule('cascade'),
    vehicle: () => p.manyToOne(Vehicle).primary().deleteRule('cascade'),
    criterion: p.string().length(40).primary(),
    value: p.integer(),
    entryId: p.uuid(),
    enteredAt: p.datetime(),
    receivedAt: p.datetime(),
    deviceId: p.uuid(),
  },
});
export class JuryScore extends JuryScoreSchema.class {}
JuryScoreSchema.setClass(JuryScore);

/** 'Befangen': a judge declared a bias towards a car; they score it in no class. Never taken back. */
const JuryRecusalSchema = defineEntity({
  name: 'JuryRecusal',
  tableName: 'jury_recusal',
  uniques: [{ properties: ['edition', 'judge', 'vehicle'] }],
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    judge: () => p.manyToOne(User).deleteRule('cascade').index(),
    vehicle: () => p.manyToOne(Vehicle).deleteRule('cascade').index(),
    enteredAt: p.datetime(),
    receivedAt: p.datetime(),
  },
});
export class JuryRecusal extends JuryRecusalSchema.class {}
JuryRecusalSchema.setClass(JuryRecusal);

/**
 * An invitation by mail to judge an edition: the address (shown to admins until accepted), the
 * link's token as its SHA-256. Accepting takes an account whose confirmed address it is.
 */
const JuryInviteSchema = defineEntity({
  name: 'JuryInvite',
  tableName: 'jury_invite',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    email: p.string().length(254),
    tokenHash: p.string().length(64).unique(),
    classIds: p.json<string[]>(),
    invitedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: createdAt(),
  },
});
export class JuryInvite extends JuryInviteSchema.class {}
JuryInviteSchema.setClass(JuryInvite);

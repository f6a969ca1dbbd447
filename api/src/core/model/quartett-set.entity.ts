import { defineEntity, p } from '@mikro-orm/core';
import { QUARTETT_SET_STATUSES } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { User } from './user.entity.js';

/** One version of the printed quartett: its cards are fixed when the export job renders it. */
const QuartettSetSchema = defineEntity({
  name: 'QuartettSet',
  tableName: 'quartett_set',
  properties: {
    id: uuidPk(),
    /** The edition whose confirmed vehicles the cards show. */
    edition: () => p.manyToOne(Edition).index(),
    title: p.string().length(200),
    /** From a sequence: versions are never reused. */
    version: p.integer().unique().defaultRaw(`nextval('quartett_set_version_seq')`),
    cardCount: p.integer().default(0),
    rulesUrl: p.string().nullable(),
    designTemplate: p.string().nullable(),
    /** Object path (/objects/exports/…) of the print PDF once rendered. */
    exportFileUrl: p.string().nullable(),
    status: p.enum(QUARTETT_SET_STATUSES).default('queued'),
    /** Rendering progress in percent. */
    progress: p.integer().default(0),
    /** Why the last attempt failed (operators' text, not shown to applicants). */
    error: p.text().nullable(),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    finishedAt: p.datetime().nullable(),
    /** Set once: from then on the data of the set's vehicles is locked. */
    releasedAt: p.datetime().nullable(),
    /** A person whose vehicle is on the cards has deleted their account since. */
    containsDeletedAccount: p.boolean().default(false),
    createdAt: createdAt(),
  },
});

export class QuartettSet extends QuartettSetSchema.class {}
QuartettSetSchema.setClass(QuartettSet);

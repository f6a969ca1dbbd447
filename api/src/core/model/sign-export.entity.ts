import { defineEntity, p } from '@mikro-orm/core';
import { SIGN_EXPORT_STATUSES, SIGN_FORMATS } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { Vehicle } from './vehicle.entity.js';

/**
 * A windshield sign PDF: an edition's whole set in one format (no vehicle), or one car's sign. One
 * row per edition and format, and one per car: asking again renders the same row anew, so the
 * bucket holds at most that many PDFs. The row holds ids only; names and zones are read when the
 * job renders. A car's row goes with the car (and its PDF with the storage sweep).
 */
const SignExportSchema = defineEntity({
  name: 'SignExport',
  tableName: 'sign_export',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    format: p.enum(SIGN_FORMATS),
    /** The car of a single sign; null for the edition's set. */
    vehicle: () => p.manyToOne(Vehicle).nullable().deleteRule('cascade'),
    status: p.enum(SIGN_EXPORT_STATUSES).default('queued'),
    /** Rendering progress in percent. */
    progress: p.integer().default(0),
    signCount: p.integer().default(0),
    /** Bucket key of the PDF once rendered (exports/signs/{id}.pdf). */
    fileKey: p.string().nullable(),
    /** Why the last attempt failed (operators' text). */
    error: p.text().nullable(),
    /** When the current rendering was asked for; a job of an earlier request finds it newer. */
    requestedAt: p.datetime().onCreate(() => new Date()),
    finishedAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});

export class SignExport extends SignExportSchema.class {}
SignExportSchema.setClass(SignExport);

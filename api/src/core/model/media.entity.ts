import { defineEntity, p } from '@mikro-orm/core';
import { APPROVAL_STATUSES, MEDIA_TYPES } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';
import { Vehicle } from './vehicle.entity.js';

const MediaSchema = defineEntity({
  name: 'Media',
  tableName: 'media',
  properties: {
    id: uuidPk(),
    vehicle: () => p.manyToOne(Vehicle).deleteRule('cascade').index(),
    type: p.enum(MEDIA_TYPES).default('image'),
    /** Object path (/objects/media/{id}/full.{ext}) of the clean full-size rendition. */
    url: p.string().length(1024).unique(),
    /** The raw upload, until the worker has written the clean renditions and deleted it. */
    uploadKey: p.string().length(300).nullable().unique(),
    thumbnailUrl: p.string().length(1024).nullable(),
    altText: p.string().nullable(),
    isHero: p.boolean().default(false),
    priority: p.integer().default(0),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    fileSize: p.integer().nullable(),
    /** Decimals sent and returned as text, per the spec. */
    cropX: p.decimal('string').precision(5).scale(2).default('50'),
    cropY: p.decimal('string').precision(5).scale(2).default('50'),
    scale: p.decimal('string').precision(5).scale(2).default('100'),
    approvalStatus: p.enum(APPROVAL_STATUSES).default('auto'),
    /** Why the worker refused the file (German, shown to the owner); set with approvalStatus rejected. */
    rejectionReason: p.text().nullable(),
    /** The earlier application's photo this one was carried over from (reapplying with the car). */
    copiedFrom: p.uuid().nullable(),
    createdAt: createdAt(),
  },
});

export class Media extends MediaSchema.class {}
MediaSchema.setClass(Media);

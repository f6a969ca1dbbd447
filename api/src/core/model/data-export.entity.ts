import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from './columns.js';
import { User } from './user.entity.js';

export const DATA_EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed'] as const;

/** A person's own data as one ZIP, built by the worker, downloadable by them until it expires. */
const DataExportSchema = defineEntity({
  name: 'DataExport',
  tableName: 'data_export',
  properties: {
    id: uuidPk(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    status: p.enum(DATA_EXPORT_STATUSES).default('queued'),
    progress: p.integer().default(0),
    objectKey: p.string().length(300).nullable(),
    error: p.text().nullable(),
    createdAt: createdAt(),
    finishedAt: p.datetime().nullable(),
    expiresAt: p.datetime().nullable(),
  },
});

export class DataExport extends DataExportSchema.class {}
DataExportSchema.setClass(DataExport);

import { defineEntity, p } from '@mikro-orm/core';
import { uuidPk } from './columns.js';

/** One run of the retention job: when, judged at which moment, and what it removed per rule. */
const RetentionRunSchema = defineEntity({
  name: 'RetentionRun',
  tableName: 'retention_run',
  properties: {
    id: uuidPk(),
    startedAt: p.datetime().index(),
    asOf: p.datetime(),
    removed: p.json<Record<string, number>>(),
  },
});

export class RetentionRun extends RetentionRunSchema.class {}
RetentionRunSchema.setClass(RetentionRun);

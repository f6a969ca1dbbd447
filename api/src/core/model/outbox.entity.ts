import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, uuidPk } from './columns.js';

/** Side effects recorded in the same transaction as the change that causes them. */
const OutboxSchema = defineEntity({
  name: 'Outbox',
  tableName: 'outbox',
  properties: {
    id: uuidPk(),
    job: p.string().length(60),
    payload: p.json<Record<string, unknown>>(),
    createdAt: createdAt(),
    publishedAt: p.datetime().nullable(),
    /** The request (or the request behind the job) that queued it: its job's log lines carry it. */
    requestId: p.string().length(128).nullable(),
  },
});

export class Outbox extends OutboxSchema.class {}
OutboxSchema.setClass(Outbox);

import { defineEntity, p } from '@mikro-orm/core';
import { AUDIT_ACTOR_ROLES, type AuditAction } from '@schlosstreffen/shared';
import { createdAt, uuidPk } from './columns.js';

/**
 * The audit log: one row per staff action that reads personal data in bulk or changes something
 * outside the status log. Append-only: the database refuses UPDATE, DELETE and TRUNCATE, except
 * clearing a deleted person's addresses and retention's removal of old rows, each when its
 * transaction says so. Like the status log it has no foreign keys; people are named by id only
 * ('Gelöschtes Konto' once gone); `seq` orders the rows.
 */
const AuditLogSchema = defineEntity({
  name: 'AuditLog',
  tableName: 'audit_log',
  properties: {
    id: uuidPk(),
    /** The acting account; null for the system. */
    actorId: p.uuid().nullable(),
    actorRole: p.enum(AUDIT_ACTOR_ROLES),
    /** The system's name (e.g. 'Kommandozeile'); null for people. */
    actorName: p.string().length(220).nullable(),
    action: p.string().length(60).$type<AuditAction>(),
    /** What it acted on: an edition year, a vehicle id, a queue name. */
    target: p.string().length(200).nullable(),
    /** Filters used, row counts: never copies of personal data. */
    details: p.json<Record<string, unknown>>(),
    /** The request's address; null for the system and once the account is deleted. */
    ip: p.string().length(64).nullable(),
    /** The route that matched (`GET /api/admin/vehicles.csv`); null for actions outside a route's audit. */
    route: p.string().length(200).nullable(),
    createdAt: createdAt(),
  },
});

export class AuditLog extends AuditLogSchema.class {}
AuditLogSchema.setClass(AuditLog);

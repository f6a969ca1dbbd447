import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditLog } from './model/audit-log.entity.js';

/** What a use case adds to its route's audit row: the subject it created, counts it found. */
export interface AuditNote {
  target?: string | number | null;
  details?: Record<string, unknown>;
}

/**
 * The audit row of the route that called a use case, recorded by the use case in its own
 * transaction (`audit?.record(tx, note)`): the row and the change commit together or not at all.
 */
export interface PendingAudit {
  record(tx: EntityManager, note?: AuditNote): AuditLog;
}

/**
 * The audit row of an audited request, recorded once: by the use case in its own transaction
 * (`record`), or, for a read that has no transaction, on its own before the first byte of the
 * answer leaves (`write`).
 */
export interface RouteAudit extends PendingAudit {
  write(em: EntityManager, note?: AuditNote): Promise<void>;
}

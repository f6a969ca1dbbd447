import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AUDIT_ACCOUNT_TARGETS,
  PRIVACY_MESSAGES,
  type AuditAction,
  type AuditActorRole,
  type AuditEntry,
  type AuditPage,
  type Role,
} from '@schlosstreffen/shared';
import { AuditLog } from '../model/audit-log.entity.js';
export type { AuditNote, PendingAudit } from '../pending-audit.js';
import { auditActors, auditPage, auditRowsOf, type AuditFilter, type AuditRow } from './audit.queries.js';

/** Who acted: a person (id and the role they acted in) or the system under a name. */
export type AuditActor =
  | { actorId: string; actorRole: Role; actorName?: undefined }
  | { actorId: null; actorRole: 'system'; actorName: string };

export type AuditRecord = AuditActor & {
  action: AuditAction;
  /** What it acted on: an edition year, a vehicle id, a queue name. */
  target?: string | null;
  /** Filters used, row counts: never copies of personal data. */
  details?: Record<string, unknown>;
  /** The request's address (`ctx.ip`); omitted for the system. */
  ip?: string | null;
  /** The route that matched (`GET /api/admin/vehicles.csv`), for a route's own audit. */
  route?: string | null;
};

/** An IPv4 client of a dual-stack socket ('::ffff:192.0.2.1') as the IPv4 address it is. */
const plainAddress = (ip: string | null | undefined): string | null =>
  ip ? ip.replace(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i, '$1') : null;

/** The actor of a signed-in account, in the role it holds now. */
export const auditActorOf = (user: { id: string; role: Role | string }): AuditActor => ({
  actorId: user.id,
  actorRole: user.role as Role,
});

/** The actor of what the system does on its own (a command line call, the scheduler). */
export const systemAuditActor = (name: string): AuditActor => ({
  actorId: null,
  actorRole: 'system',
  actorName: name,
});

/**
 * Appends one audit row in the caller's unit of work: the caller's flush (or transaction) writes it
 * with the change it records, or not at all.
 */
export function recordAudit(em: EntityManager, record: AuditRecord): AuditLog {
  return em.create(AuditLog, {
    actorId: record.actorId,
    actorRole: record.actorRole as AuditActorRole,
    actorName: record.actorId === null ? record.actorName : null,
    action: record.action,
    target: record.target ?? null,
    details: record.details ?? {},
    ip: plainAddress(record.ip),
    route: record.route ?? null,
  });
}

/** Appends one audit row on its own (an action with no transaction of its own, e.g. a read). */
export async function writeAudit(em: EntityManager, record: AuditRecord): Promise<void> {
  const fork = em.fork();
  recordAudit(fork, record);
  await fork.flush();
}

/** A row as the admin page and the data export show it: a person's name now, 'Gelöschtes Konto' once gone. */
function present(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actorId: row.actor_id,
    actorName: row.actor_name ?? PRIVACY_MESSAGES.deletedAccount,
    actorRole: row.actor_role as AuditActorRole,
    action: row.action as AuditAction,
    target: row.target,
    targetName:
      row.target_name ??
      (row.target && AUDIT_ACCOUNT_TARGETS.includes(row.action as AuditAction)
        ? PRIVACY_MESSAGES.deletedAccount
        : null),
    details: row.details ?? {},
    ip: row.ip,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** One page of the log, newest first; `next` continues after its last row. */
export async function listAudit(
  em: EntityManager,
  filter: Omit<AuditFilter, 'limit'> & { limit: number },
): Promise<Omit<AuditPage, 'people'>> {
  const rows = await auditPage(em, { ...filter, limit: filter.limit + 1 });
  const page = rows.slice(0, filter.limit);
  return {
    entries: page.map(present),
    next: rows.length > filter.limit ? page.at(-1)!.seq : null,
  };
}

/** The people the log names, for the page's filter: name now, or 'Gelöschtes Konto'; sorted by name. */
export async function listAuditActors(em: EntityManager): Promise<{ id: string; name: string }[]> {
  const rows = await auditActors(em);
  return rows
    .map((row) => ({ id: row.actor_id, name: row.actor_name ?? PRIVACY_MESSAGES.deletedAccount }))
    .sort((a, b) => a.name.localeCompare(b.name, 'de'));
}

/** A person's own rows, oldest first (the data export). */
export async function auditEntriesOf(em: EntityManager, actorId: string): Promise<AuditEntry[]> {
  return (await auditRowsOf(em, actorId)).map(present);
}

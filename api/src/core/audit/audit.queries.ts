/**
 * The SQL of the audit log: pages for the admin page (names resolved now), one person's rows for
 * the data export, and the two changes the log allows (a deleted person's addresses, retention).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AUDIT_ACCOUNT_TARGETS, AUDIT_VEHICLE_TARGETS } from '@schlosstreffen/shared';
import { runStatement, selectRows } from '../db/db.queries.js';

export interface AuditRow {
  id: string;
  seq: string;
  actor_id: string | null;
  /** The account's name now (full name, else email); the system's name; null once the account is gone. */
  actor_name: string | null;
  actor_role: string;
  action: string;
  target: string | null;
  /** The subject account's name or the subject application's title, now; null when none or gone. */
  target_name: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  created_at: Date | string;
}

export interface AuditFilter {
  actorId?: string;
  action?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** Rows before this `seq` (keyset). */
  beforeSeq?: string;
  limit: number;
}

/** Action codes as SQL literals (constants of the code, checked to be plain). */
const literals = (actions: readonly string[]) =>
  actions
    .map((action) => {
      if (!/^[a-z_.]+$/.test(action)) throw new Error(`not an action code: ${action}`);
      return `'${action}'`;
    })
    .join(', ');
const UUID_TEXT = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;
const targetId = `case when a.target ~* ${UUID_TEXT} then a.target::uuid end`;
const personName = (alias: string) =>
  `coalesce(nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), ''), ${alias}.email)`;

/** The row with the actor's name and the subject's name, as they are now. */
const FROM = `select a.id, a.seq::text as seq, a.actor_id, a.actor_role, a.action, a.target, a.details, a.ip,
    a.created_at, coalesce(a.actor_name, ${personName('u')}) as actor_name,
    coalesce(${personName('tu')}, tv.title) as target_name
  from audit_log a
  left join users u on u.id = a.actor_id
  left join users tu on a.action in (${literals(AUDIT_ACCOUNT_TARGETS)}) and tu.id = ${targetId}
  left join vehicle tv on a.action in (${literals(AUDIT_VEHICLE_TARGETS)}) and tv.id = ${targetId}`;

/** One page of the log, newest first. */
export function auditPage(em: EntityManager, filter: AuditFilter): Promise<AuditRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.actorId) {
    where.push('a.actor_id = ?');
    params.push(filter.actorId);
  }
  if (filter.action) {
    where.push('a.action = ?');
    params.push(filter.action);
  }
  if (filter.from) {
    where.push('a.created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to) {
    where.push('a.created_at < ?');
    params.push(filter.to);
  }
  if (filter.beforeSeq) {
    where.push('a.seq < ?::bigint');
    params.push(filter.beforeSeq);
  }
  params.push(filter.limit);
  return selectRows<AuditRow>(
    em,
    `${FROM}
      ${where.length ? `where ${where.join(' and ')}` : ''}
      order by a.seq desc limit ?`,
    params,
  );
}

/** Whether the row is in the log (committed, or written in the caller's transaction). */
export async function auditRowExists(em: EntityManager, id: string): Promise<boolean> {
  return (await selectRows(em, `select 1 from audit_log where id = ?`, [id])).length === 1;
}

/** Every person who has rows, with the name they have now (null once gone). */
export function auditActors(em: EntityManager): Promise<{ actor_id: string; actor_name: string | null }[]> {
  return selectRows(
    em,
    `select a.actor_id, ${personName('u')} as actor_name
       from (select distinct actor_id from audit_log where actor_id is not null) a
       left join users u on u.id = a.actor_id`,
  );
}

/** One person's own rows, oldest first (the data export). */
export function auditRowsOf(em: EntityManager, actorId: string): Promise<AuditRow[]> {
  return selectRows<AuditRow>(em, `${FROM} where a.actor_id = ? order by a.seq`, [actorId]);
}

/**
 * Clears the addresses of a deleted person's rows, in the deleting transaction: one of the two
 * changes the log allows (the rows stay; the name resolves to 'Gelöschtes Konto').
 */
export async function redactAuditAddresses(tx: EntityManager, actorId: string): Promise<number> {
  await runStatement(tx, `select set_config('schlosstreffen.redact_audit_log', 'on', true)`);
  const changed = await runStatement(
    tx,
    `update audit_log set ip = null where actor_id = ? and ip is not null`,
    [actorId],
  );
  await runStatement(tx, `select set_config('schlosstreffen.redact_audit_log', 'off', true)`);
  return changed;
}

/**
 * Deletes the rows created before `before`, in the retention run's transaction: the other change
 * the log allows, and only for rows older than the moment named here.
 */
export async function deleteAuditRowsBefore(tx: EntityManager, before: Date): Promise<number> {
  await runStatement(tx, `select set_config('schlosstreffen.audit_log_retention_before', ?, true)`, [
    before.toISOString(),
  ]);
  const removed = await runStatement(tx, `delete from audit_log where created_at < ?`, [before]);
  await runStatement(tx, `select set_config('schlosstreffen.audit_log_retention_before', '', true)`);
  return removed;
}

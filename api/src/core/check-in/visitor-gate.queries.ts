import type { EntityManager } from '@mikro-orm/postgresql';
import type { VisitorScanKind, VisitorScanResult } from '@schlosstreffen/shared';
import { runStatement, selectRows } from '../db/db.queries.js';
import { uuidArray } from './check-in.queries.js';

/**
 * Every SQL statement of visitor tickets at the gate: the tickets a scan names (locked), the scans
 * kept and replayed, a gate list's part, a device's answers and the board's counts.
 */

export interface GateTicketRow {
  id: string;
  edition_id: string;
  state: 'issued' | 'waiting' | 'returned';
}

/** The tickets of these ids, locked in id order until the transaction ends. */
export async function lockTickets(
  em: EntityManager,
  ids: readonly string[],
): Promise<Map<string, GateTicketRow>> {
  if (!ids.length) return new Map();
  const rows = await selectRows<GateTicketRow>(
    em,
    `select id, edition_id, state from visitor_ticket where id = any(?::uuid[]) order by id for update`,
    [uuidArray(ids)],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** The ticket of a code (its secret's SHA-256), locked. */
export async function lockTicketByHash(em: EntityManager, hash: string): Promise<GateTicketRow | null> {
  const [row] = await selectRows<GateTicketRow>(
    em,
    `select id, edition_id, state from visitor_ticket where secret_hash = ? for update`,
    [hash],
  );
  return row ?? null;
}

export async function knownVisitorScans(em: EntityManager, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await selectRows<{ id: string }>(
    em,
    `select id from visitor_ticket_scan where id = any(?::uuid[])`,
    [uuidArray(ids)],
  );
  return new Set(rows.map((row) => row.id));
}

export interface VisitorScanInsert {
  id: string;
  editionId: string;
  ticketId: string | null;
  kind: VisitorScanKind;
  /** A walk-in is admitted as it is; a ticket's scan counts as the replay decides. */
  result: VisitorScanResult;
  deviceId: string | null;
  gate: string;
  scannedAt: Date;
  receivedAt: Date;
  staffId: string | null;
}

/** Keeps these scans in one statement; an id kept before stays as it was. */
export async function insertVisitorScans(
  em: EntityManager,
  scans: readonly VisitorScanInsert[],
): Promise<void> {
  if (!scans.length) return;
  await runStatement(
    em,
    `insert into visitor_ticket_scan
       (id, edition_id, ticket_id, kind, result, device_id, gate, scanned_at, received_at, result_changed_at, staff_id)
     values ${scans.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
     on conflict (id) do nothing`,
    scans.flatMap((scan) => [
      scan.id,
      scan.editionId,
      scan.ticketId,
      scan.kind,
      scan.result,
      scan.deviceId,
      scan.gate,
      scan.scannedAt,
      scan.receivedAt,
      scan.receivedAt,
      scan.staffId,
    ]),
  );
}

export interface TicketScanRow {
  id: string;
  ticket_id: string;
  kind: 'in' | 'out';
  result: VisitorScanResult;
  gate: string;
  scanned_at: Date;
}

/** Every scan of these tickets, per ticket in the order they were made. */
export function scansOfTickets(em: EntityManager, ticketIds: readonly string[]): Promise<TicketScanRow[]> {
  if (!ticketIds.length) return Promise.resolve([]);
  return selectRows<TicketScanRow>(
    em,
    `select id, ticket_id, kind, result, gate, scanned_at from visitor_ticket_scan
      where ticket_id = any(?::uuid[]) order by ticket_id, scanned_at, id`,
    [uuidArray(ticketIds)],
  );
}

/** New results of scans, in one statement; each changed one is stamped `at`. */
export async function setScanResults(
  em: EntityManager,
  changes: ReadonlyArray<{ id: string; result: VisitorScanResult }>,
  at: Date,
): Promise<void> {
  if (!changes.length) return;
  await runStatement(
    em,
    `update visitor_ticket_scan s set result = c.result, result_changed_at = ?
       from unnest(?::uuid[], ?::text[]) as c(id, result)
      where s.id = c.id`,
    [
      at,
      uuidArray(changes.map((change) => change.id)),
      `{${changes.map((change) => change.result).join(',')}}`,
    ],
  );
}

export interface TicketStanding {
  id: string;
  firstInAt: Date | null;
  firstInGate: string | null;
  inside: boolean;
  lastScanAt: Date | null;
}

/** Where these tickets stand at the gate, in one statement, stamped `at` for the gates' lists. */
export async function setStandings(
  em: EntityManager,
  standings: readonly TicketStanding[],
  at: Date,
): Promise<void> {
  if (!standings.length) return;
  await runStatement(
    em,
    `update visitor_ticket t
        set first_in_at = s.first_in_at, first_in_gate = s.first_in_gate, inside = s.inside,
            last_scan_at = s.last_scan_at, gate_changed_at = ?
       from unnest(?::uuid[], ?::timestamptz[], ?::text[], ?::boolean[], ?::timestamptz[])
            as s(id, first_in_at, first_in_gate, inside, last_scan_at)
      where t.id = s.id`,
    [
      at,
      uuidArray(standings.map((standing) => standing.id)),
      `{${standings.map((standing) => (standing.firstInAt ? `"${standing.firstInAt.toISOString()}"` : 'NULL')).join(',')}}`,
      `{${standings.map((standing) => (standing.firstInGate === null ? 'NULL' : JSON.stringify(standing.firstInGate))).join(',')}}`,
      `{${standings.map((standing) => String(standing.inside)).join(',')}}`,
      `{${standings.map((standing) => (standing.lastScanAt ? `"${standing.lastScanAt.toISOString()}"` : 'NULL')).join(',')}}`,
    ],
  );
}

export interface DeviceVisitorScanRow {
  id: string;
  ticket_id: string | null;
  kind: VisitorScanKind;
  result: VisitorScanResult;
  first_in_at: Date | null;
  first_in_gate: string | null;
}

/**
 * A device's visitor scans with their tickets' first entry: all of them, or those whose result
 * changed after `after`, and always those named in `ids`.
 */
export function deviceVisitorScans(
  em: EntityManager,
  deviceId: string,
  changed?: { after: Date; ids: readonly string[] },
): Promise<DeviceVisitorScanRow[]> {
  return selectRows<DeviceVisitorScanRow>(
    em,
    `select s.id, s.ticket_id, s.kind, s.result, t.first_in_at, t.first_in_gate
       from visitor_ticket_scan s left join visitor_ticket t on t.id = s.ticket_id
      where s.device_id = ? ${changed ? 'and (s.result_changed_at > ? or s.id = any(?::uuid[]))' : ''}
      order by s.scanned_at, s.id`,
    changed ? [deviceId, changed.after, uuidArray(changed.ids)] : [deviceId],
  );
}

export interface GateTicketListRow {
  id: string;
  secret_hash: string | null;
  state: 'issued' | 'waiting' | 'returned';
  first_in_at: Date | null;
  first_in_gate: string | null;
  inside: boolean;
  last_scan_at: Date | null;
}

/**
 * The edition's tickets for a gate list: the issued ones, or (with `since`, the server's clock)
 * those issued, given back or moved at the gate after it.
 */
export function gateTicketRows(
  em: EntityManager,
  editionId: string,
  since: Date | null,
): Promise<GateTicketListRow[]> {
  return selectRows<GateTicketListRow>(
    em,
    since
      ? `select id, secret_hash, state, first_in_at, first_in_gate, inside, last_scan_at from visitor_ticket
          where edition_id = ? and state in ('issued', 'returned') and gate_changed_at > ?`
      : `select id, secret_hash, state, first_in_at, first_in_gate, inside, last_scan_at from visitor_ticket
          where edition_id = ? and state = 'issued'`,
    since ? [editionId, since] : [editionId],
  );
}

export interface VisitorCountsRow {
  /** Tickets let in (their first entry) and walk-ins. */
  admitted: number;
  walk_ins: number;
  /** Entries (first and again, walk-ins too) less exits. */
  on_grounds: number;
}

/** The edition's visitors at the gate, from its kept scans (they outlive their tickets). */
export async function visitorCounts(em: EntityManager, editionId: string): Promise<VisitorCountsRow> {
  const [row] = await selectRows<VisitorCountsRow>(
    em,
    `select count(*) filter (where result = 'admitted')::int as admitted,
            count(*) filter (where kind = 'walk_in')::int as walk_ins,
            (count(*) filter (where result in ('admitted', 'readmitted'))
              - count(*) filter (where result = 'exited'))::int as on_grounds
       from visitor_ticket_scan where edition_id = ?`,
    [editionId],
  );
  return row ?? { admitted: 0, walk_ins: 0, on_grounds: 0 };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CHECK_IN_MESSAGES,
  VISITOR_CAPACITY_WARNING,
  VISITOR_GATE_MESSAGES,
  venueDateTime,
  venueTime,
  withinGateWindow,
  type VisitorScanKind,
  type VisitorScanRefusal,
  type VisitorScanResult,
} from '@schlosstreffen/shared';
import type {
  ArrivalsBoard,
  GateTicketEntry,
  GateTicketsData,
  GateVisitorScanState,
} from '@schlosstreffen/shared/api';
import type { Gate, ScanSource } from './admission.js';
import { Edition } from '../model/edition.entity.js';
import {
  deviceVisitorScans,
  gateTicketRows,
  insertVisitorScans,
  knownVisitorScans,
  lockTicketByHash,
  lockTickets,
  scansOfTickets,
  setScanResults,
  setStandings,
  visitorCounts,
  type DeviceVisitorScanRow,
  type GateTicketRow,
  type TicketScanRow,
  type TicketStanding,
  type VisitorScanInsert,
} from './visitor-gate.queries.js';
import { gateListClock, ticketSecretHash } from '../visitors/tickets.js';
import { ticketCounts } from '../visitors/tickets.queries.js';

/** A device's answers look back this far before its cursor: a replay committed late still shows. */
const SYNC_CURSOR_OVERLAP_MS = 60_000;
/** The gate list's tickets look back this far before the cursor, as its cars do. */
const LIST_CURSOR_OVERLAP_MS = 60_000;

/** One visitor scan a gate sent: a ticket's (in or out) or a walk-in (no ticket). */
export interface VisitorScan {
  id: string;
  ticketId: string | null;
  kind: VisitorScanKind;
  scannedAt: Date;
}

/** Whether the edition's tickets are scanned on the way out too. */
export const exitScanningOf = (edition: Pick<Edition, 'visitorTickets'>): boolean =>
  edition.visitorTickets?.exitScanning ?? false;

/**
 * A ticket's scans counted in the order they were made: an entry lets a visitor in who is not
 * inside (the first time 'admitted', later 'readmitted'), else it is a duplicate; an exit lets an
 * inside visitor out, else it changes nothing. The same scans give the same results whatever order
 * they arrived in, so a scan made offline and sent late, or twice, counts once and in its place.
 */
export function replayTicket(
  scans: ReadonlyArray<Pick<TicketScanRow, 'id' | 'kind' | 'gate' | 'scanned_at'>>,
): {
  results: Map<string, VisitorScanResult>;
  standing: Omit<TicketStanding, 'id'>;
} {
  const results = new Map<string, VisitorScanResult>();
  let inside = false;
  let firstIn: { at: Date; gate: string } | null = null;
  let last: Date | null = null;
  for (const scan of scans) {
    const at = new Date(scan.scanned_at);
    last = at;
    if (scan.kind === 'in') {
      if (inside) results.set(scan.id, 'duplicate');
      else {
        results.set(scan.id, firstIn ? 'readmitted' : 'admitted');
        firstIn ??= { at, gate: scan.gate };
        inside = true;
      }
    } else if (inside) {
      results.set(scan.id, 'exited');
      inside = false;
    } else results.set(scan.id, 'not_inside');
  }
  return {
    results,
    standing: {
      firstInAt: firstIn?.at ?? null,
      firstInGate: firstIn?.gate ?? null,
      inside,
      lastScanAt: last,
    },
  };
}

/** Replays the tickets' scans and stores what changed: each scan's result and each ticket's standing. */
async function replayTickets(tx: EntityManager, ticketIds: readonly string[], now: Date): Promise<void> {
  const scans = await scansOfTickets(tx, ticketIds);
  const byTicket = new Map<string, TicketScanRow[]>();
  for (const scan of scans) {
    const list = byTicket.get(scan.ticket_id) ?? [];
    list.push(scan);
    byTicket.set(scan.ticket_id, list);
  }
  const changes: Array<{ id: string; result: VisitorScanResult }> = [];
  const standings: TicketStanding[] = [];
  for (const ticketId of ticketIds) {
    const ticketScans = byTicket.get(ticketId) ?? [];
    const { results, standing } = replayTicket(ticketScans);
    for (const scan of ticketScans) {
      const result = results.get(scan.id)!;
      if (result !== scan.result) changes.push({ id: scan.id, result });
    }
    standings.push({ id: ticketId, ...standing });
  }
  await setScanResults(tx, changes, now);
  await setStandings(tx, standings, gateListClock());
}

/** Why a scan is not taken, or null when it is kept. */
function refusalOf(
  scan: VisitorScan,
  ticket: GateTicketRow | null | undefined,
  gate: Gate,
  exitScanning: boolean,
): VisitorScanRefusal | null {
  if (
    scan.kind !== 'walk_in' &&
    (!ticket || ticket.state !== 'issued' || ticket.edition_id !== gate.editionId)
  )
    return 'ticket_invalid';
  if (!withinGateWindow(gate.window, scan.scannedAt)) return 'outside_window';
  if (scan.kind === 'out' && !exitScanning) return 'exit_off';
  return null;
}

const refusedState = (scan: VisitorScan, reason: VisitorScanRefusal, gate: Gate): GateVisitorScanState => ({
  id: scan.id,
  ticketId: scan.ticketId,
  kind: scan.kind,
  result: 'refused',
  firstIn: null,
  firstGate: null,
  reason,
  message:
    reason === 'outside_window'
      ? CHECK_IN_MESSAGES.scanOutsideWindow(
          venueDateTime(scan.scannedAt),
          venueDateTime(gate.window.opensAt),
          venueDateTime(gate.window.closesAt),
        )
      : VISITOR_GATE_MESSAGES[reason],
});

/** The German words of a kept scan's result. */
function messageOf(row: DeviceVisitorScanRow): string {
  if (row.kind === 'walk_in') return VISITOR_GATE_MESSAGES.walkIn;
  if (row.result === 'duplicate' && row.first_in_at) {
    return CHECK_IN_MESSAGES.already_checked_in(venueTime(new Date(row.first_in_at)));
  }
  if (row.result === 'duplicate') return CHECK_IN_MESSAGES.alreadyCheckedInNoTime;
  return VISITOR_GATE_MESSAGES[row.result];
}

const stateOf = (row: DeviceVisitorScanRow): GateVisitorScanState => ({
  id: row.id,
  ticketId: row.ticket_id,
  kind: row.kind,
  result: row.result,
  firstIn: row.first_in_at ? new Date(row.first_in_at).toISOString() : null,
  firstGate: row.first_in_gate,
  reason: null,
  message: messageOf(row),
});

/**
 * Keeps the visitor scans a gate sent (online or after being offline), each at the gate of the
 * edition current when it was made: a ticket scan is taken while its ticket is issued for that
 * edition and it was made in the gate window (an exit only where exit scanning is on), a walk-in in
 * the window. Each scan is kept once under its id, so a resend changes nothing; then every ticket
 * it names is replayed (replayTicket). A refused scan is not kept and is answered once, with its
 * reason. In the caller's transaction.
 */
export async function keepVisitorScans(
  tx: EntityManager,
  source: ScanSource,
  scans: readonly VisitorScan[],
  gates: readonly Gate[],
  now: Date,
): Promise<GateVisitorScanState[]> {
  const tickets = await lockTickets(tx, [
    ...new Set(scans.flatMap((scan) => (scan.ticketId ? [scan.ticketId] : []))),
  ]);
  const known = await knownVisitorScans(
    tx,
    scans.map((scan) => scan.id),
  );
  const exitScanning = new Map<string, boolean>();
  const refused: GateVisitorScanState[] = [];
  const kept: VisitorScanInsert[] = [];
  const replay = new Set<string>();
  for (const [index, scan] of scans.entries()) {
    if (known.has(scan.id)) continue;
    const gate = gates[index]!;
    if (!exitScanning.has(gate.editionId)) {
      exitScanning.set(gate.editionId, exitScanningOf(await tx.findOneOrFail(Edition, gate.editionId)));
    }
    const ticket = scan.ticketId ? tickets.get(scan.ticketId) : null;
    const reason = refusalOf(scan, ticket, gate, exitScanning.get(gate.editionId)!);
    if (reason) {
      refused.push(refusedState(scan, reason, gate));
      continue;
    }
    known.add(scan.id);
    kept.push({
      id: scan.id,
      editionId: gate.editionId,
      ticketId: scan.ticketId,
      kind: scan.kind,
      result: 'admitted',
      deviceId: source.deviceId,
      gate: source.gate,
      scannedAt: scan.scannedAt,
      receivedAt: now,
      staffId: source.staffId,
    });
    if (scan.ticketId) replay.add(scan.ticketId);
  }
  await insertVisitorScans(tx, kept);
  await replayTickets(tx, [...replay], now);
  return refused;
}

/**
 * A device's visitor scans for its sync answer: all of them, or those whose result changed since
 * its cursor, and every scan of this request; refused ones as they were answered.
 */
export async function deviceVisitorAnswer(
  em: EntityManager,
  deviceId: string,
  requestIds: readonly string[],
  since: Date | null,
  refused: readonly GateVisitorScanState[],
): Promise<GateVisitorScanState[]> {
  const rows = await deviceVisitorScans(
    em,
    deviceId,
    since ? { after: new Date(since.getTime() - SYNC_CURSOR_OVERLAP_MS), ids: requestIds } : undefined,
  );
  return [...rows.map(stateOf), ...refused];
}

/**
 * A visitor ticket scanned at the online screen (a device without a list): found by its code,
 * decided and kept as a gate's scan would be; null when no ticket has this code.
 */
export async function visitorCheckInOnline(
  em: EntityManager,
  input: { id: string; code: string; kind: 'in' | 'out' },
  source: ScanSource,
  gate: Gate,
  now: Date,
): Promise<GateVisitorScanState | null> {
  return em.transactional(async (tx) => {
    const ticket = await lockTicketByHash(tx, ticketSecretHash(input.code));
    if (!ticket) return null;
    const scan: VisitorScan = { id: input.id, ticketId: ticket.id, kind: input.kind, scannedAt: now };
    const [refused] = await keepVisitorScans(tx, source, [scan], [gate], now);
    if (refused) return refused;
    const [row] = await deviceVisitorScans(tx, source.deviceId, { after: now, ids: [scan.id] });
    return stateOf(row!);
  });
}

/**
 * The visitor tickets' part of a gate list (signed as a whole by the list): the edition's issued tickets by id
 * and code hash with where they stand, or (with `since`) those that changed and the ids of those
 * given back; null where the edition has no tickets.
 */
export async function gateTicketsPart(
  em: EntityManager,
  options: { edition: Edition; validUntil: string; since?: Date },
): Promise<GateTicketsData | null> {
  const { edition } = options;
  if (!edition.visitorTickets) return null;
  const since = options.since ? new Date(options.since.getTime() - LIST_CURSOR_OVERLAP_MS) : null;
  const rows = await gateTicketRows(em, edition.id, since);
  const entries: GateTicketEntry[] = [];
  const removed: string[] = [];
  for (const row of rows) {
    if (row.state !== 'issued' || !row.secret_hash) {
      removed.push(row.id);
      continue;
    }
    entries.push({
      id: row.id,
      hash: row.secret_hash,
      firstIn: row.first_in_at ? new Date(row.first_in_at).toISOString() : null,
      firstGate: row.first_in_gate,
      inside: row.inside,
      last: row.last_scan_at ? new Date(row.last_scan_at).toISOString() : null,
    });
  }
  return {
    editionId: edition.id,
    exitScanning: exitScanningOf(edition),
    capacity: edition.visitorTickets.capacity,
    entries,
    removed,
    total: (await ticketCounts(em, edition.id)).issued,
    validUntil: options.validUntil,
  };
}

/** The 'Einlass' board's visitors: admitted, walk-ins, on the grounds against the capacity. */
export async function visitorBoard(
  em: EntityManager,
  edition: Pick<Edition, 'id' | 'visitorTickets'>,
): Promise<ArrivalsBoard['visitors']> {
  const counts = await visitorCounts(em, edition.id);
  if (!edition.visitorTickets && counts.admitted === 0) return null;
  const capacity = edition.visitorTickets?.capacity ?? null;
  return {
    capacity,
    admitted: counts.admitted,
    walkIns: counts.walk_ins,
    onGrounds: Math.max(0, counts.on_grounds),
    warning: capacity !== null && counts.on_grounds >= capacity * VISITOR_CAPACITY_WARNING,
    exitScanning: exitScanningOf(edition),
  };
}

import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  INVITATION_MESSAGES,
  venueDateTime,
  venueTime,
  withinGateWindow,
  type GateWindow,
} from '@schlosstreffen/shared';
import type { GateRefusal, GateScanState } from '@schlosstreffen/shared/api';

/** The gate name of check-ins at the online screen. */
export const ONLINE_GATE = 'Einlass';

/** A device clock ahead of the server's counts as now: a scan cannot lie in the future. */
const CLOCK_SKEW_MS = 2 * 60 * 1000;

export interface GateScan {
  id: string;
  invitationId: string;
  scannedAt: Date;
}

export interface GateDevice {
  deviceId: string;
  gate: string;
  staffId: string | null;
}

/** The event's gate window: from the gates' opening to the end of the event. */
export function gateWindowOf(event: { gateOpensAt: Date; end: Date }): GateWindow {
  return { opensAt: event.gateOpensAt, closesAt: event.end };
}

/** Why a scan at this time is not taken, in German; null within the window. */
export function outsideWindowMessage(window: GateWindow, scannedAt: Date): string | null {
  if (withinGateWindow(window, scannedAt)) return null;
  return INVITATION_MESSAGES.outsideWindow(
    venueDateTime(scannedAt),
    venueDateTime(window.opensAt),
    venueDateTime(window.closesAt),
  );
}

interface ScanRow {
  id: string;
  invitation_id: string;
  scanned_at: Date;
  gate: string;
  winner_id: string | null;
  checked_in_at: Date | null;
  winner_gate: string | null;
}

function stateOf(row: ScanRow): GateScanState {
  const checkedInAt = row.checked_in_at ? new Date(row.checked_in_at) : null;
  const gate = row.winner_gate ?? (checkedInAt ? ONLINE_GATE : null);
  const admitted = row.winner_id === row.id;
  return {
    id: row.id,
    invitationId: row.invitation_id,
    result: admitted ? 'admitted' : 'duplicate',
    checkedInAt: checkedInAt?.toISOString() ?? null,
    gate,
    reason: null,
    message: admitted
      ? INVITATION_MESSAGES.gateCheckedIn
      : INVITATION_MESSAGES.duplicate(gate ?? ONLINE_GATE, checkedInAt ? venueTime(checkedInAt) : '–'),
  };
}

/**
 * Records scans a gate sent, online or after being offline. Each scan is kept once under the
 * device's id, so a resend changes nothing. The earliest scan of a car wins: it sets checkedInAt and
 * the gate even when it arrives after a later scan from another gate, which then is a duplicate.
 * A scan dated outside the gate window is refused and not kept, and so is a scan of a car that is
 * no longer admissible (released, not confirmed), unless the car was in already. A refused scan
 * is answered once, with its reason; the device keeps it as refused and does not send it again.
 */
export async function recordGateScans(
  em: EntityManager,
  device: GateDevice,
  scans: GateScan[],
  window: GateWindow,
  now = new Date(),
): Promise<GateScanState[]> {
  const refused: GateScanState[] = [];
  const refuse = (scan: GateScan, reason: GateRefusal, message: string) =>
    refused.push({
      id: scan.id,
      invitationId: scan.invitationId,
      result: 'refused',
      checkedInAt: null,
      gate: null,
      reason,
      message,
    });
  const ordered = [...scans].sort((a, b) => a.scannedAt.getTime() - b.scannedAt.getTime());
  for (const scan of ordered) {
    const scannedAt = new Date(Math.min(scan.scannedAt.getTime(), now.getTime() + CLOCK_SKEW_MS));
    const outside = outsideWindowMessage(window, scannedAt);
    if (outside) {
      refuse(scan, 'outside_window', outside);
      continue;
    }
    const outcome = await em.transactional(async (tx) => {
      const connection = tx.getConnection();
      const [invitation] = await connection.execute<
        Array<{ id: string; checked_in_at: Date | null; admissible: boolean }>
      >(
        `select i.id, i.checked_in_at,
                (i.released_at is null and v.status = 'confirmed') as admissible
           from invitation i join vehicle v on v.id = i.vehicle_id
          where i.id = ? for update of i`,
        [scan.invitationId],
        'all',
        tx.getTransactionContext(),
      );
      if (!invitation) return 'refused' as const;
      const known = await connection.execute<Array<{ id: string }>>(
        `select id from check_in_scan where id = ?`,
        [scan.id],
        'all',
        tx.getTransactionContext(),
      );
      if (known.length > 0) return 'kept' as const;
      if (!invitation.admissible && !invitation.checked_in_at) return 'refused' as const;
      await connection.execute(
        `insert into check_in_scan (id, invitation_id, device_id, gate, scanned_at, received_at, staff_id)
         values (?, ?, ?, ?, ?, ?, ?)`,
        [scan.id, scan.invitationId, device.deviceId, device.gate, scannedAt, now, device.staffId],
        'run',
        tx.getTransactionContext(),
      );
      const current = invitation.checked_in_at ? new Date(invitation.checked_in_at) : null;
      if (!current || scannedAt < current) {
        await connection.execute(
          `update invitation set checked_in = true, checked_in_at = ?, checked_in_scan_id = ? where id = ?`,
          [scannedAt, scan.id, scan.invitationId],
          'run',
          tx.getTransactionContext(),
        );
      }
      return 'kept' as const;
    });
    if (outcome === 'refused') refuse(scan, 'not_admitted', INVITATION_MESSAGES.notAdmitted);
  }
  const kept = await deviceScanStates(em, device.deviceId);
  // A scan the server has already (a resend) is answered as kept, never as refused besides.
  const keptIds = new Set(kept.map((state) => state.id));
  return [...kept, ...refused.filter((state) => !keptIds.has(state.id))];
}

/** Every scan this device sent, with what became of it: admitted, or a duplicate of whose. */
export async function deviceScanStates(em: EntityManager, deviceId: string): Promise<GateScanState[]> {
  const rows = await em.getConnection().execute<ScanRow[]>(
    `select s.id, s.invitation_id, s.scanned_at, s.gate, i.checked_in_scan_id as winner_id,
            i.checked_in_at, w.gate as winner_gate
       from check_in_scan s
       join invitation i on i.id = s.invitation_id
       left join check_in_scan w on w.id = i.checked_in_scan_id
      where s.device_id = ?
      order by s.scanned_at`,
    [deviceId],
  );
  return rows.map(stateOf);
}

/** A check-in at the online screen, kept as a scan of its own: returns the scan's id. */
export async function recordOnlineScan(
  em: EntityManager,
  invitationId: string,
  staffId: string | null,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await em.getConnection().execute(
    `insert into check_in_scan (id, invitation_id, device_id, gate, scanned_at, received_at, staff_id)
       values (?, ?, ?, ?, ?, ?, ?)`,
    [id, invitationId, randomUUID(), ONLINE_GATE, now, now, staffId],
    'run',
    em.getTransactionContext(),
  );
  return id;
}

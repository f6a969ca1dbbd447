import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CHECK_IN_MESSAGES,
  ONLINE_GATE,
  venueDateTime,
  venueTime,
  type GateWindow,
} from '@schlosstreffen/shared';
import type { GateScanState, GateSyncResult, GateVisitorScanState } from '@schlosstreffen/shared/api';
import { deviceVisitorAnswer, keepVisitorScans, type VisitorScan } from './visitor-gate.js';
import { admissionOf, orderedScans, type Gate, type ScanAdmission, type ScanSource } from './admission.js';
import {
  deviceScans,
  insertScans,
  knownScans,
  lockCars,
  markCheckedInAll,
  type DeviceScanRow,
  type ScanInsert,
} from './check-in.queries.js';

/**
 * Another gate's scans are looked up this far before a device's cursor: one received in a
 * transaction that committed after the last answer still shows up. The device merges by scan id, so
 * seeing one twice does no harm. The device's own scans need no overlap: each request's are
 * committed before it is answered.
 */
const SYNC_CURSOR_OVERLAP_MS = 60_000;

export interface GateScan {
  id: string;
  invitationId: string;
  scannedAt: Date;
}

function stateOf(row: DeviceScanRow): GateScanState {
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
      ? CHECK_IN_MESSAGES.checked_in
      : CHECK_IN_MESSAGES.duplicate(gate ?? ONLINE_GATE, checkedInAt ? venueTime(checkedInAt) : '–'),
  };
}

/** A scan the rule did not let in and the server did not keep, as the gate is told once. */
function refusalOf(scan: GateScan, admission: ScanAdmission, window: GateWindow): GateScanState {
  // The gate knows the car from its signed list: unknown or unconfirmed here, it is no longer admitted.
  const outside = admission.result === 'outside_window';
  // A list kept from another edition: the code is that edition's.
  const otherEdition = admission.result === 'other_edition' && admission.car;
  return {
    id: scan.id,
    invitationId: scan.invitationId,
    result: 'refused',
    checkedInAt: null,
    gate: null,
    reason: outside ? 'outside_window' : admission.result === 'fee_open' ? 'fee_open' : 'not_admitted',
    message: outside
      ? CHECK_IN_MESSAGES.scanOutsideWindow(
          venueDateTime(scan.scannedAt),
          venueDateTime(window.opensAt),
          venueDateTime(window.closesAt),
        )
      : otherEdition
        ? CHECK_IN_MESSAGES.other_edition(otherEdition.edition_name)
        : admission.result === 'fee_open'
          ? CHECK_IN_MESSAGES.fee_open
          : CHECK_IN_MESSAGES.not_admitted,
  };
}

/**
 * Records scans a gate sent after being offline, each under the admission rule at the gate of the
 * edition current when it was made (`gateAt`): a scan of a meeting is taken however late its device
 * syncs, after the meeting or once the next edition is current. Earliest first.
 * Each scan is kept once under its id, so a resend changes nothing. The earliest scan of a car wins:
 * it sets checkedInAt and the gate even when it arrives after a later scan from another gate, which
 * then is a duplicate. A refused scan is not kept and is answered once, with its reason; the device
 * keeps it as refused and does not send it again.
 *
 * The answer holds the device's scans whose state changed since `since` (the cursor of its last
 * answer; all of them without one) and every scan of this request, and the cursor for next time.
 */
export async function recordGateScans(
  em: EntityManager,
  source: ScanSource,
  scans: GateScan[],
  gateAt: (scannedAt: Date) => Promise<Gate>,
  options: { now?: Date; since?: Date | null; visitorScans?: VisitorScan[] } = {},
): Promise<GateSyncResult> {
  const now = options.now ?? new Date();
  const ordered = orderedScans(scans, now);
  const gates = await Promise.all(ordered.map((scan) => gateAt(scan.scannedAt)));
  const visitorScans = orderedScans(options.visitorScans ?? [], now);
  const visitorGates = await Promise.all(visitorScans.map((scan) => gateAt(scan.scannedAt)));
  let visitorsRefused: GateVisitorScanState[] = [];
  const refused = await em.transactional(async (tx) => {
    // A device's visitor scans in the same transaction as its cars': one answer for both.
    visitorsRefused = await keepVisitorScans(tx, source, visitorScans, visitorGates, now);
    const refusals: GateScanState[] = [];
    // The whole sync in one transaction of a few statements: its cars locked at once, then each scan
    // decided in order against the cars as the scans before it left them.
    const cars = await lockCars(tx, [...new Set(ordered.map((scan) => scan.invitationId))]);
    const known = await knownScans(
      tx,
      ordered.map((scan) => scan.id),
    );
    const kept: ScanInsert[] = [];
    const marks = new Map<string, { invitationId: string; scanId: string; at: Date }>();
    ordered.forEach((scan, index) => {
      const gate = gates[index]!;
      const car = cars.get(scan.invitationId) ?? null;
      // Kept before (or earlier in this request): a resend changes nothing.
      if (car && known.has(scan.id)) return;
      const admission = admissionOf(car, scan.scannedAt, gate);
      const admitted = admission === 'checked_in';
      if (!car || !(admitted || admission === 'already_checked_in')) {
        refusals.push(refusalOf(scan, { result: admission, car, kept: false }, gate.window));
        return;
      }
      known.add(scan.id);
      kept.push({
        id: scan.id,
        invitationId: car.id,
        deviceId: source.deviceId,
        gate: source.gate,
        scannedAt: scan.scannedAt,
        receivedAt: now,
        staffId: source.staffId,
      });
      if (!admitted) return;
      car.checked_in_at = scan.scannedAt;
      marks.set(car.id, { invitationId: car.id, scanId: scan.id, at: scan.scannedAt });
    });
    await insertScans(tx, kept);
    await markCheckedInAll(tx, [...marks.values()]);
    return refusals;
  });
  const since = options.since ?? null;
  const changed = since && {
    after: since,
    winnerAfter: new Date(since.getTime() - SYNC_CURSOR_OVERLAP_MS),
    ids: scans.map((scan) => scan.id),
  };
  const kept = (await deviceScans(em, source.deviceId, changed ?? undefined)).map(stateOf);
  const visitors = await deviceVisitorAnswer(
    em,
    source.deviceId,
    visitorScans.map((scan) => scan.id),
    since,
    visitorsRefused,
  );
  return { scans: [...kept, ...refused], visitorScans: visitors, cursor: now.toISOString() };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { withinGateWindow, type CheckInResultCode, type GateWindow } from '@schlosstreffen/shared';
import {
  insertScan,
  lockCar,
  markCheckedIn,
  scanKnown,
  type CarLocator,
  type CarRow,
} from './check-in.queries.js';

/** A device clock ahead of the server's counts as now: a scan cannot lie in the future. */
const CLOCK_SKEW_MS = 2 * 60 * 1000;

/** A gate's scans in the order they were made, none later than the server's clock allows. */
export function orderedScans<T extends { scannedAt: Date }>(scans: readonly T[], now: Date): T[] {
  return [...scans]
    .sort((a, b) => a.scannedAt.getTime() - b.scannedAt.getTime())
    .map((scan) => ({
      ...scan,
      scannedAt: new Date(Math.min(scan.scannedAt.getTime(), now.getTime() + CLOCK_SKEW_MS)),
    }));
}

/** The event's gate window: from the gates' opening to the end of the event. */
export function gateWindowOf(event: { gateOpensAt: Date; end: Date }): GateWindow {
  return { opensAt: event.gateOpensAt, closesAt: event.end };
}

/** Where a scan is decided: the edition whose gate it is and that edition's gate window. */
export interface Gate {
  editionId: string;
  window: GateWindow;
}

/**
 * The admission rule, the same for a gate's offline scan and a check-in at the online screen: a car
 * the server does not know is unknown; an invitation of another edition opens no gate of this one;
 * a scan dated outside the gate window is refused; a car that is
 * in already is a repeat, unless this scan is earlier than the one that let it in (then this one
 * wins); a car is let in only while its invitation holds, its owner has confirmed and its
 * participation fee, where the edition has one, is paid (by transfer or in cash at the gate) or waived.
 */
export function admissionOf(
  car: Pick<CarRow, 'checked_in_at' | 'released_at' | 'status' | 'edition_id' | 'fee_open_cents'> | null,
  scannedAt: Date,
  gate: Gate,
): CheckInResultCode {
  if (!car) return 'unknown_code';
  if (car.edition_id !== gate.editionId) return 'other_edition';
  if (!withinGateWindow(gate.window, scannedAt)) return 'outside_window';
  if (car.checked_in_at) return scannedAt < new Date(car.checked_in_at) ? 'checked_in' : 'already_checked_in';
  if (car.status === 'invited' && !car.released_at) return 'not_confirmed';
  if (car.status !== 'confirmed' || car.released_at) return 'not_admitted';
  if (car.fee_open_cents > 0) return 'fee_open';
  return 'checked_in';
}

/** The device a scan comes from and who held it. */
export interface ScanSource {
  deviceId: string;
  gate: string;
  staffId: string | null;
}

export interface ScanAdmission {
  result: CheckInResultCode;
  /** The car as it is after the scan; null when unknown. */
  car: CarRow | null;
  /** Whether the scan is kept (it was let in, or a repeat a gate sent, or it was kept before). */
  kept: boolean;
}

/**
 * Decides one scan under the rule, in its own transaction with the car locked, and keeps it: a scan
 * that lets the car in, and (with `keepRepeats`, a gate's scans) a repeat too, so the gate learns it
 * was a duplicate. A scan kept before (the same id sent again) changes nothing.
 */
export function admitScan(
  em: EntityManager,
  scan: { id: string; car: CarLocator; scannedAt: Date },
  source: ScanSource,
  gate: Gate,
  options: { now: Date; keepRepeats: boolean },
): Promise<ScanAdmission> {
  return em.transactional(async (tx) => {
    const car = await lockCar(tx, scan.car, gate.editionId);
    if (car && (await scanKnown(tx, scan.id))) return { result: 'already_checked_in', car, kept: true };
    const result = admissionOf(car, scan.scannedAt, gate);
    const admitted = result === 'checked_in';
    if (!car || !(admitted || (result === 'already_checked_in' && options.keepRepeats))) {
      return { result, car, kept: false };
    }
    await insertScan(tx, {
      id: scan.id,
      invitationId: car.id,
      deviceId: source.deviceId,
      gate: source.gate,
      scannedAt: scan.scannedAt,
      receivedAt: options.now,
      staffId: source.staffId,
    });
    if (!admitted) return { result, car, kept: true };
    await markCheckedIn(tx, car.id, scan.id, scan.scannedAt);
    return { result, car: { ...car, checked_in_at: scan.scannedAt }, kept: true };
  });
}

import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ONLINE_GATE } from '@schlosstreffen/shared';
import { admitScan, type Gate, type ScanAdmission } from './admission.js';

/**
 * Checks a car in at the online screen by its check-in code or start number, at the server's time,
 * under the admission rule. A check-in is kept as a scan of its own (a device id of its own, the
 * gate 'Einlass'); a repeat changes nothing and reports the first.
 */
export function checkInOnline(
  em: EntityManager,
  code: string,
  staffId: string | null,
  gate: Gate,
  now: Date,
): Promise<ScanAdmission> {
  return admitScan(
    em,
    { id: randomUUID(), car: { code }, scannedAt: now },
    { deviceId: randomUUID(), gate: ONLINE_GATE, staffId },
    gate,
    { now, keepRepeats: false },
  );
}

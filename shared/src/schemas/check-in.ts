import * as v from 'valibot';
import { CHECK_IN_CODE_MAX_LENGTH, CHECK_IN_MESSAGES } from '../check-in.js';
import { GATE_SYNC_MAX_SCANS } from '../gate-window.js';
import { fieldObject } from './issues.js';
import { VISITOR_SCAN_KINDS } from '../visitor-tickets.js';

/** A code typed or scanned at the gate: a car's check-in code or start number, or a visitor ticket's code. */
const GateCodeSchema = v.pipe(
  v.string(CHECK_IN_MESSAGES.codeRequired),
  v.trim(),
  v.nonEmpty(CHECK_IN_MESSAGES.codeRequired),
  v.maxLength(CHECK_IN_CODE_MAX_LENGTH, CHECK_IN_MESSAGES.unknown_code),
);

/** Body of POST /api/admin/check-in: a check-in code (from the QR code) or a start number. */
export const CheckInSchema = fieldObject({ code: GateCodeSchema });
export type CheckInInput = v.InferOutput<typeof CheckInSchema>;

/** One scan a gate queued: its own id (a resend is the same scan), the invitation and the device's time. */
export const GateScanSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  invitationId: v.pipe(v.string(), v.uuid()),
  scannedAt: v.pipe(v.string(), v.isoTimestamp()),
});

/**
 * One visitor scan a gate queued: its own id, the ticket (null for a walk-in counted at the day's
 * till), in or out, and the device's time.
 */
export const GateVisitorScanSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  ticketId: v.nullable(v.pipe(v.string(), v.uuid())),
  kind: v.picklist(VISITOR_SCAN_KINDS),
  scannedAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type GateVisitorScanInput = v.InferOutput<typeof GateVisitorScanSchema>;

/** Body of POST /api/admin/check-in/visitor: a visitor ticket's code, scanned in or out, at the server. */
export const VisitorCheckInSchema = fieldObject({
  code: GateCodeSchema,
  kind: v.optional(v.picklist(['in', 'out'] as const), 'in'),
  gate: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(40, CHECK_IN_MESSAGES.gateMax))),
});

/** A gate's name ('Tor A'), as the device names itself and the scans carry it. */
export const GateNameSchema = v.pipe(
  v.string(CHECK_IN_MESSAGES.gateRequired),
  v.trim(),
  v.nonEmpty(CHECK_IN_MESSAGES.gateRequired),
  v.maxLength(40, CHECK_IN_MESSAGES.gateMax),
);

/**
 * Body of POST /api/admin/check-in/sync. `since` is the cursor of the device's last answer: the
 * server then answers only what changed after it (and every scan of this request).
 */
export const GateSyncSchema = fieldObject({
  deviceId: v.pipe(v.string(), v.uuid()),
  gate: GateNameSchema,
  since: v.optional(
    v.pipe(v.string(CHECK_IN_MESSAGES.gateSyncCursor), v.isoTimestamp(CHECK_IN_MESSAGES.gateSyncCursor)),
  ),
  scans: v.pipe(
    v.array(GateScanSchema),
    v.maxLength(GATE_SYNC_MAX_SCANS, CHECK_IN_MESSAGES.gateSyncMax(GATE_SYNC_MAX_SCANS)),
  ),
  visitorScans: v.optional(
    v.pipe(
      v.array(GateVisitorScanSchema),
      v.maxLength(GATE_SYNC_MAX_SCANS, CHECK_IN_MESSAGES.gateSyncMax(GATE_SYNC_MAX_SCANS)),
    ),
    [],
  ),
});
export type GateSyncInput = v.InferOutput<typeof GateSyncSchema>;

import type { CheckInResultCode } from '../check-in.js';
import type { VehicleStatus } from '../status.js';
import type { VisitorScanKind, VisitorScanRefusal, VisitorScanResult } from '../visitor-tickets.js';

/** What the gate sees of a car (POST /api/admin/check-in: 200, and 409 when already checked in). */
export interface CheckInView {
  startNumber: number;
  parkingZone: string;
  checkedIn: boolean;
  checkedInAt: string | null;
  vehicle: {
    id: string;
    /** The car's name, else brand and model. */
    title: string;
    brand: string;
    model: string;
    /** Not on a gate's offline list. */
    year: number | null;
    color: string | null;
    status: VehicleStatus;
  };
  /** Only the online answer names the owner; a gate's offline list does not hold it. */
  owner: { firstName: string | null; lastName: string | null } | null;
}

/** POST /api/admin/check-in, 200. */
export type CheckInResult = { result: 'checked_in'; message: string } & CheckInView;

/**
 * POST /api/admin/check-in refused (404 unknown_code, 400 for an overlong code, 409 otherwise): the
 * code, its German text, and for already_checked_in the car as it was checked in.
 */
export type CheckInRefusal =
  | ({ result: 'already_checked_in'; message: string } & CheckInView)
  | ({ result: 'fee_open'; message: string; feeOpenCents: number } & CheckInView)
  | { result: Exclude<CheckInResultCode, 'checked_in' | 'already_checked_in' | 'fee_open'>; message: string };

/**
 * One car on a gate's list, as the server signs it: only what the gate needs. The check-in code is
 * there only as its SHA-256 (hex); owner, email and phone are not there at all.
 */
export interface GateEntryData {
  /** The invitation's id. */
  id: string;
  startNumber: number;
  /** The name on the quartett card: the car's name, else brand and model. */
  name: string;
  brand: string;
  model: string;
  color: string | null;
  zone: string;
  codeHash: string;
  /** Only confirmed cars are let in. */
  confirmed: boolean;
  /** The participation fee still open, in cents: a car with an open fee is let in only after 'Bar bezahlt'. Absent or 0: nothing open. */
  feeOpenCents?: number;
  /** The winning scan's time and gate; null while the car is not in. */
  checkedInAt: string | null;
  gate: string | null;
  /** The entry is no longer valid after this (the day after the event). */
  validUntil: string;
}

/** A gate list entry as sent: `data` is the JSON of a GateEntryData, `sig` its Ed25519 signature (base64). */
export interface SignedGateEntry {
  data: string;
  sig: string;
}

/**
 * One visitor ticket on a gate's list: its id and the SHA-256 (hex) of its code, nothing of its
 * holder; where it stands at the gate as the server knows it.
 */
export interface GateTicketEntry {
  id: string;
  hash: string;
  /** The scan that first let it in: time and gate; null while never in. */
  firstIn: string | null;
  firstGate: string | null;
  /** On the grounds now (in, and not scanned out since). */
  inside: boolean;
  /** The time of the latest scan counted: the device replays only its own later scans on top. */
  last: string | null;
}

/** The visitor tickets' part of a gate list, signed as a whole (`data` is its JSON). */
export interface GateTicketsData {
  editionId: string;
  exitScanning: boolean;
  capacity: number;
  entries: GateTicketEntry[];
  /** Tickets no longer valid since the cursor (given back). */
  removed: string[];
  /** Valid tickets of the edition: after merging a delta the device holds as many, else it loads anew. */
  total: number;
  validUntil: string;
}

/** GET /api/admin/check-in/list[?since=…]: the whole list, or what changed since the cursor. */
export interface GateList {
  /** The server's Ed25519 public key (raw, base64): the device verifies every entry with it. */
  publicKey: string;
  /** Pass back as `since` to get only what changed. */
  cursor: string;
  /** Whether this is only the changes since `since`. */
  delta: boolean;
  entries: SignedGateEntry[];
  /** Invitations no longer on the list (released, or no longer invited or confirmed). */
  removed: string[];
  /** Entries on the whole list: after merging a delta the device holds as many, else it loads it anew. */
  total: number;
  /** After this the device deletes the list. */
  expiresAt: string;
  /** The edition's visitor tickets (signed as a whole); null where it has none. */
  tickets: SignedGateEntry | null;
}

/** What the server made of a scan a gate sent. */
export interface GateScanState {
  /** The device's id of the scan. */
  id: string;
  invitationId: string;
  /** admitted: this scan let the car in; duplicate: another scan was first; refused: not admissible. */
  result: 'admitted' | 'duplicate' | 'refused';
  /** The first scan's time and gate (for a duplicate: the other gate's). */
  checkedInAt: string | null;
  gate: string | null;
  /**
   * Why a scan was refused: outside_window (dated outside the gate window: a wrong device clock),
   * not_admitted (the car is not confirmed or no longer invited); null otherwise.
   */
  reason: GateRefusal | null;
  message: string;
}

/** Why a synced scan was refused: the admission rule's codes a gate's scan can end in. */
export type GateRefusal = Extract<CheckInResultCode, 'outside_window' | 'not_admitted' | 'fee_open'>;

/**
 * POST /api/admin/check-in/sync: the state of the scans of this device that changed since the
 * request's `since` (all of them without one) and of every scan in the request.
 */
export interface GateSyncResult {
  scans: GateScanState[];
  visitorScans: GateVisitorScanState[];
  /** Pass back as `since` on the next sync. */
  cursor: string;
}

/** What the server made of a visitor scan (POST /api/admin/check-in/sync, POST /api/admin/check-in/visitor). */
export interface GateVisitorScanState {
  id: string;
  ticketId: string | null;
  kind: VisitorScanKind;
  /** What it counts as (replayed in the order the ticket's scans were made), or refused (not kept). */
  result: VisitorScanResult | 'refused';
  /** The ticket's first entry: time and gate (for a duplicate, the other gate's). */
  firstIn: string | null;
  firstGate: string | null;
  reason: VisitorScanRefusal | null;
  message: string;
}

/** GET /api/admin/arrivals: the 'Einlass' board. */
export interface ArrivalsBoard {
  expected: number;
  arrived: number;
  zones: Array<{ name: string; expected: number; arrived: number }>;
  /** Arrivals per quarter hour at the venue, from the first to the last (or now). */
  timeline: Array<{ at: string; arrived: number; total: number }>;
  /** The newest scans first. */
  recent: Array<{
    startNumber: number;
    name: string;
    zone: string;
    gate: string;
    scannedAt: string;
    result: 'admitted' | 'duplicate';
  }>;
  /** Visitors, where the edition has visitor tickets (or visitors were counted). */
  visitors: {
    capacity: number | null;
    /** Tickets let in once or more, and walk-ins. */
    admitted: number;
    walkIns: number;
    /** In minus out, walk-ins included. */
    onGrounds: number;
    /** On the grounds at 90 % of the capacity or more. */
    warning: boolean;
    exitScanning: boolean;
  } | null;
  updatedAt: string;
}

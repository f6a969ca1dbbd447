import type { QuartettSetStatus } from '../event-messages.js';
import type { VISITOR_STATE_LABELS } from '../messages.js';
import type { VehicleStatus } from '../status.js';

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

/** POST /api/invitations/confirm */
export interface InvitationConfirmResult {
  status: 'confirmed' | 'already_confirmed';
  message: string;
}

/** POST /api/invitations/decline and POST /api/vehicles/{id}/decline */
export interface InvitationDeclineResult {
  status: 'declined' | 'already_declined';
  message: string;
}

/** GET /api/admin/waitlist: moving up as the admin sees it. */
export interface WaitlistOverview {
  autoMoveUp: boolean;
  /** The order of moving up, in words. */
  rule: string;
  /** No moving up from then on (confirm-by dates never lie later). */
  cutoff: string;
  pastCutoff: boolean;
  /** Free places over all zones. */
  free: number;
  /** Given-up places (declined, lapsed, revoked) not yet passed on to the waitlist. */
  pending: number;
  zones: Array<{ name: string; capacity: number; taken: number }>;
  /** The next waitlisted vehicles in the order of moving up ('Nachrücker'). */
  candidates: Array<{
    rank: number;
    score: number | null;
    submittedAt: string;
    vehicle: { id: string; title: string; brand: string; model: string; ownerName: string };
  }>;
}

/** POST /api/admin/waitlist/invite */
export interface WaitlistInviteResult {
  vehicleId: string;
  startNumber: number;
  parkingZone: string;
}

/** A quartett print export as GET/POST /api/admin/quartett-sets present it. */
export interface QuartettSet {
  id: string;
  title: string;
  version: number;
  status: QuartettSetStatus;
  statusLabel: string;
  /** Rendering progress in percent. */
  progress: number;
  cardCount: number;
  exportFileUrl: string | null;
  downloadName: string;
  /** The PDF as an attachment (`?download=`), once ready. */
  downloadUrl: string | null;
  /** Why the export failed. */
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  releasedAt: string | null;
  /** A person whose vehicle is on these cards has deleted their account since. */
  containsDeletedAccount: boolean;
}

export type VisitorState = keyof typeof VISITOR_STATE_LABELS;

/** A visitor pre-registration as GET /api/admin/visitors lists it. */
export interface AdminVisitor {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  state: VisitorState;
}

/** GET /api/admin/visitors */
export interface AdminVisitorList {
  /** Newest first. */
  visitors: AdminVisitor[];
  counts: { total: number } & Record<VisitorState, number>;
}

/** An event update to visitors as GET/POST /api/admin/visitor-updates… present it. */
export interface VisitorUpdate {
  id: string;
  subject: string;
  body: string;
  status: 'draft' | 'sending' | 'sent';
  statusLabel: string;
  revision: number;
  /**
   * Whether the preview of this revision is rendered (with the real mail template); it is served
   * at GET /api/admin/visitor-updates/{id}/preview.
   */
  previewReady: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Recipients fixed when sending started. */
  total: number;
  counts: { pending: number; sent: number; failed: number; unsubscribed: number };
  /** Done share of the recipients, 0–100. */
  progress: number;
}

/** GET /api/admin/visitor-updates */
export interface VisitorUpdateList {
  updates: VisitorUpdate[];
  /** Confirmed visitors who did not unsubscribe: who a new update would go to. */
  recipients: number;
}

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

export type GateRefusal = 'outside_window' | 'not_admitted';

/** POST /api/admin/check-in/sync: the state of every scan this device has sent. */
export interface GateSyncResult {
  scans: GateScanState[];
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
  updatedAt: string;
}

import type { QuartettSetStatus } from '../event-messages.js';
import type { ReviewConflictKind } from '../reviews.js';
import type { VISITOR_STATE_LABELS } from '../messages.js';

/** POST /api/invitations/confirm */
export interface InvitationConfirmResult {
  status: 'confirmed' | 'already_confirmed';
  message: string;
  /** The car the link was for (its owner's dashboard shows its fee). */
  vehicleId: string;
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
    /** null when none, or hidden from a reviewer who has not submitted their own review of it. */
    score: number | null;
    scoreHidden: boolean;
    /** The viewer owns it or declared a bias towards its owner: they do not invite it. */
    conflict: ReviewConflictKind | null;
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

/** GET /api/visitor-tickets/{secret}: the ticket page (reachable only with its secret link). */
export interface VisitorTicketView {
  state: 'issued' | 'returned';
  firstName: string;
  lastName: string;
  edition: { name: string; year: number; startsAt: string; endsAt: string; place: string };
  /** What the QR code holds: the ticket's secret (not all digits, so no gate reads it as a start number). */
  code: string;
  /** The QR code of `code` as SVG (level M), drawn by the server: the page keeps it for offline use. */
  qrSvg: string;
}

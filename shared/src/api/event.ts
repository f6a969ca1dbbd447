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
    year: number;
    color: string | null;
    status: VehicleStatus;
  };
  owner: { firstName: string | null; lastName: string | null };
}

/** POST /api/admin/check-in, 200. */
export type CheckInResult = { result: 'checked_in'; message: string } & CheckInView;

/** POST /api/invitations/confirm */
export interface InvitationConfirmResult {
  status: 'confirmed' | 'already_confirmed';
  message: string;
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

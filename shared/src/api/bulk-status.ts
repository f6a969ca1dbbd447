import type { VehicleStatus } from '../status.js';
import type { StatusMailPreview } from '../status-mails.js';

/** POST /api/admin/vehicles/bulk-status/preview: what a bulk status change would do. */
export interface BulkStatusPreview {
  status: VehicleStatus;
  /** Applications selected (by hand, or every hit of the filter). */
  selected: number;
  /** The rows that would change, in the list's order; send their `id` and `oldStatus` to apply. */
  changes: BulkStatusPreviewRow[];
  /** Rows left out and why (already in the status, not in the edition). */
  skipped: BulkStatusSkippedRow[];
  /** Mails that would go out: one per change whose row has `mail`. */
  mails: number;
  /** Places (invited or confirmed) the change gives up; the waitlist may move up into them. */
  placesFreed: number;
}

export interface BulkStatusPreviewRow {
  id: string;
  /** The vehicle's title (its name, else brand and model). */
  title: string;
  oldStatus: VehicleStatus;
  owner: { name: string; email: string };
  /** The mail this row's change sends; null when none (`noMail` says why). */
  mail: StatusMailPreview | null;
  noMail: string | null;
}

export interface BulkStatusSkippedRow {
  id: string;
  /** null when the application is not in the edition. */
  title: string | null;
  status: VehicleStatus | null;
  reason: string;
}

/** POST /api/admin/vehicles/bulk-status: the outcome per row, each in a transaction of its own. */
export interface BulkStatusResult {
  status: VehicleStatus;
  changed: number;
  /** Already in the target status (e.g. the same request sent again): nothing written, no mail. */
  unchanged: number;
  /** Refused with a reason (a stale old status, not in the edition). */
  refused: number;
  /** Mails queued (or, for invitations, their jobs). */
  mails: number;
  rows: BulkStatusRowResult[];
}

export interface BulkStatusRowResult {
  id: string;
  title: string | null;
  outcome: 'changed' | 'unchanged' | 'refused';
  /** The row's status after the request; null when the application is not in the edition. */
  status: VehicleStatus | null;
  /** Why it was refused or left unchanged; null when changed. */
  reason: string | null;
  /** Whether this row's change queued a mail to the applicant. */
  mail: boolean;
}

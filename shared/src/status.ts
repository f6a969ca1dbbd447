/** Enumerations, their German labels and badge colours, and the owner status rules. */

export const ROLES = ['user', 'admin', 'reviewer'] as const;
export type Role = (typeof ROLES)[number];

export const VEHICLE_STATUSES = [
  'draft',
  'submitted',
  'in_review',
  'waitlist',
  'invited',
  'confirmed',
  'rejected',
] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

/** A status change, a consent withdrawn, a submitted review, or an admin's correction of a past record. */
export const STATUS_EVENT_KINDS = ['status', 'consent_withdrawn', 'review', 'correction'] as const;
export type StatusEventKind = (typeof STATUS_EVENT_KINDS)[number];

/** An entry of a vehicle's status log (GET /api/vehicles/{id}/reviews, newest first). */
export interface StatusHistoryEntry {
  id: string;
  vehicleId: string;
  reviewerId: string | null;
  /** Who made the change: the user's full name (else email), or the system's name. */
  actorName: string;
  /** admin, reviewer, user or system. */
  actorRole: string;
  /**
   * A status change, a consent withdrawn or a submitted review (old and new status then are the same),
   * or an admin's correction of a past edition's record (its note: the reason).
   */
  kind: StatusEventKind;
  /** null for the entry that created the vehicle. */
  oldStatus: VehicleStatus | null;
  newStatus: VehicleStatus;
  commentInternal: string | null;
  score: number | null;
  createdAt: string;
}

export const DRIVE_TYPES = ['FWD', 'RWD', 'AWD'] as const;
export type DriveType = (typeof DRIVE_TYPES)[number];

export const FUEL_TYPES = ['Benzin', 'Diesel', 'Electric', 'Hybrid'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];

export const MEDIA_TYPES = ['image', 'video', 'link'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const APPROVAL_STATUSES = ['auto', 'moderated', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const STATUS_LABELS: Readonly<Record<VehicleStatus, string>> = {
  draft: 'Entwurf',
  submitted: 'Eingereicht',
  in_review: 'In Prüfung',
  waitlist: 'Warteliste',
  invited: 'Eingeladen',
  confirmed: 'Bestätigt',
  rejected: 'Abgelehnt',
};

/** Tailwind classes of the status badge (web's Tailwind sources must include shared/src). */
export const STATUS_BADGE_CLASSES: Readonly<Record<VehicleStatus, string>> = {
  draft: 'bg-slate-100 text-slate-700 border-slate-200',
  submitted: 'bg-blue-100 text-blue-800 border-blue-200',
  in_review: 'bg-yellow-100 text-yellow-800 border-yellow-200',
  waitlist: 'bg-orange-100 text-orange-800 border-orange-200',
  invited: 'bg-green-100 text-green-800 border-green-200',
  confirmed: 'bg-emerald-700 text-white border-emerald-800',
  rejected: 'bg-red-100 text-red-800 border-red-200',
};

/** Fuel options as shown in the form (Electric reads 'Elektro'). */
export const FUEL_LABELS: Readonly<Record<FuelType, string>> = {
  Benzin: 'Benzin',
  Diesel: 'Diesel',
  Electric: 'Elektro',
  Hybrid: 'Hybrid',
};

/** Drive types as shown on the quartett card. */
export const DRIVE_TYPE_LABELS: Readonly<Record<DriveType, string>> = {
  AWD: 'Allradantrieb',
  RWD: 'Heckantrieb',
  FWD: 'Frontantrieb',
};

function isDriveType(value: unknown): value is DriveType {
  return typeof value === 'string' && (DRIVE_TYPES as readonly string[]).includes(value);
}

/** Card label of a drive type in any letter case; 'Unbekannt' for anything else. */
export function driveTypeLabel(driveType: string | null | undefined): string {
  const key = driveType?.trim().toUpperCase();
  return isDriveType(key) ? DRIVE_TYPE_LABELS[key] : 'Unbekannt';
}

// Owner status rules (ARCHITECTURE.md "Status rules"); reviewers and admins may set any status.

/** Einreichen: only drafts. */
export function ownerCanSubmit(status: VehicleStatus): boolean {
  return status === 'draft';
}

/** Zurückziehen: back to draft from any status except draft and rejected. */
export function ownerCanWithdraw(status: VehicleStatus): boolean {
  return status !== 'draft' && status !== 'rejected';
}

/** Löschen: only drafts. */
export function ownerCanDelete(status: VehicleStatus): boolean {
  return status === 'draft';
}

/** Accepting the invitation: only invited. */
export function ownerCanConfirm(status: VehicleStatus): boolean {
  return status === 'invited';
}

/** Whether an owner may move a vehicle from one status to another. */
export function ownerCanChangeStatus(from: VehicleStatus, to: VehicleStatus): boolean {
  if (to === 'submitted') return ownerCanSubmit(from);
  if (to === 'draft') return ownerCanWithdraw(from);
  if (to === 'confirmed') return ownerCanConfirm(from);
  return false;
}

/** Reviewers and admins see all vehicles and media and may change any status. */
export function isStaffRole(role: string | null | undefined): role is 'admin' | 'reviewer' {
  return role === 'admin' || role === 'reviewer';
}

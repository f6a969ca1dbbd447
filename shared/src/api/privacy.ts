import type { ConsentKind, ConsentSource, RetentionRule } from '../privacy.js';

/** A recorded consent (GET /api/account/consents; staff: GET /api/vehicles/{id}/consents). */
export interface Consent {
  id: string;
  kind: ConsentKind;
  vehicleId: string | null;
  /** The vehicle's name, else brand and model. */
  vehicleTitle: string | null;
  /** Version of the wording agreed to, and that wording. */
  version: string;
  wording: string;
  source: ConsentSource;
  grantedAt: string;
  withdrawnAt: string | null;
}

/** The signed-in user's data export (POST/GET /api/account/export). */
export interface DataExport {
  id: string;
  status: 'queued' | 'running' | 'ready' | 'failed';
  /** Percent. */
  progress: number;
  createdAt: string;
  /** Until when the file can be downloaded. */
  expiresAt: string | null;
  /** The ZIP as an attachment, while ready and not expired. */
  downloadUrl: string | null;
  error: string | null;
}

/** GET /api/admin/retention: the periods in force and what the last run removed. */
export interface RetentionOverview {
  periods: { rule: RetentionRule; label: string; description: string; days: number }[];
  lastRun: {
    startedAt: string;
    /** The moment the run judged ages against (now, or --as-of). */
    asOf: string;
    removed: Record<string, number>;
  } | null;
}

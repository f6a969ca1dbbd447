import type { EditionState } from '../editions.js';

/** One edition as the admin's 'Ausgaben' screen shows it (GET /api/admin/editions, newest first). */
export interface AdminEdition {
  year: number;
  name: string;
  startsAt: string;
  endsAt: string;
  place: string;
  /** When applications open (or opened); null while in preparation. */
  applicationsOpenAt: string | null;
  /** `YYYY-MM-DD` at the venue. */
  applicationDeadline: string;
  parkingZones: Array<{ name: string; capacity: number }>;
  confirmDays: number;
  cutoffDays: number;
  reminderDays: number;
  /** From when the public site shows it; null when never. */
  currentFrom: string | null;
  state: EditionState;
  /** The one the public site shows now. */
  current: boolean;
  /** Applications in it. */
  applications: number;
}

export interface AdminEditionList {
  editions: AdminEdition[];
}

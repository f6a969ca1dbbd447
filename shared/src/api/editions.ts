import type { AwardLookBack, AwardMe } from './award.js';
import type { JuryClassPlaces, JuryPlace } from './jury.js';
import type { EditionFee } from '../payments/fee.js';
import type { EditionPhase } from '../editions.js';
import type { VehicleStatus } from '../status.js';
import type { PublicVehicle } from './vehicles.js';

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
  /** 'Teilnahmegebühr' of the invited cars; null: none (the invitation asks for no payment). */
  fee: EditionFee | null;
  /**
   * 'Besuchertickets': the capacity and the tickets issued, given back and waiting; null: visitors
   * pre-register as before, without tickets.
   */
  visitorTickets: {
    capacity: number;
    exitScanning: boolean;
    issued: number;
    returned: number;
    waiting: number;
  } | null;
  /** Its phase now (`editionPhaseAt`). */
  phase: EditionPhase;
  /** The one the public site shows now. */
  current: boolean;
  /** Applications in it. */
  applications: number;
}

export interface AdminEditionList {
  editions: AdminEdition[];
}

/** GET /api/editions/:year/look-back: an edition that has ended, with the cars that took part. */
export interface LookBack {
  edition: { year: number; name: string; startsAt: string; endsAt: string; place: string };
  /** Confirmed cars whose owners did not withdraw the consent to show their images, as listed then. */
  vehicles: PublicVehicle[];
  /** Cars let in at the gate. */
  checkedIn: number;
  /** Visitors let in at the gate (tickets and walk-ins), kept as a total; null where none were counted. */
  visitorsAdmitted: number | null;
  /** Each listed car's start number by its id: the address of its page. */
  startNumbers: Record<string, number>;
  /** 'Publikumsliebling {Jahr}': the first three once voting closed; null without a result. */
  award: AwardLookBack | null;
  /** The jury's published places per class; absent or empty before publication. */
  jury?: JuryClassPlaces[];
}

/**
 * GET /api/editions/:year/vehicles/:startNumber: the public page of the confirmed car holding this
 * start number at that meeting. Without the owner's consent to show its images only its number,
 * brand and model.
 */
/** The visitors' award as anyone sees it on a car's page: its state and moments, nothing personal. */
export type CarPageAward = Pick<AwardMe, 'state' | 'opensAt' | 'closesAt' | 'maxVotes'>;

export interface CarPage {
  edition: { year: number; name: string; startsAt: string; endsAt: string; place: string };
  startNumber: number;
  brand: string;
  model: string;
  /** The car as the landing page lists it, with all its photos; null without the media consent. */
  vehicle: PublicVehicle | null;
  /** The owner's longer text about the car (with the media consent); null when none. */
  story: string | null;
  /** Only when the owner allowed it on this page ('@name'); else null. */
  instagramHandle: string | null;
  /** The link preview's image (1200×630, /objects/…), null until the worker made it or without one. */
  shareImageUrl: string | null;
  /** The edition's voting; null once its meeting is over without voting ever having opened. */
  award: CarPageAward | null;
  /** The car's published jury places ('1. Platz – Bester Umbau 2026'); absent or empty: none. */
  juryPlaces?: JuryPlace[];
}

/** One earlier (or later) application of the same owner, as the reviewer sees it beside this one. */
export interface EarlierApplication {
  id: string;
  edition: { year: number; name: string };
  /** The same car (carried over); otherwise another car of the owner. */
  sameCar: boolean;
  title: string;
  status: VehicleStatus;
  /** The application's score; null when none, or hidden (`scoreHidden`). */
  score: number | null;
  /** Hidden from a reviewer who has not submitted their own review of it while it is decided. */
  scoreHidden: boolean;
  startNumber: number | null;
  checkedIn: boolean;
}

/** GET /api/admin/vehicles/:id/earlier (staff): the owner's other applications and what changed. */
export interface EarlierApplications {
  /** 'Frühere Ausgaben': the owner's applications in other editions, newest edition first. */
  applications: EarlierApplication[];
  /** The owner's other applications of the same edition (scores as blind review allows). */
  sameEdition: EarlierApplication[];
  /** Against the car's application of the edition before; null when it has none. */
  changes: {
    since: { year: number; name: string };
    fields: Array<{ field: string; label: string; before: string; after: string }>;
    /** Photos then and now; carried over (copied when reapplying), new since, and gone since. */
    photos: { before: number; after: number; carried: number; added: number; removed: number };
  } | null;
}

import type { EditionPhase } from '../editions.js';
import type { DriveType, FuelType, VehicleStatus } from '../status.js';
import type { Owner } from './account.js';
import type { Media } from './media.js';
import type { JuryPlace } from './jury.js';
import type { VehiclePayment } from './payments.js';

/** What owner and staff see of an invitation; the check-in code itself travels only by mail. */
export interface VehicleInvitation {
  startNumber: number;
  parkingZone: string;
  checkedIn: boolean;
  checkedInAt: string | null;
  issuedAt: string;
  /** Unconfirmed by then, the invitation lapses; null when it has no deadline. */
  confirmBy: string | null;
  /** When and why the place was given up (the start number stays taken); null while it holds. */
  releasedAt: string | null;
  releaseReason: 'lapsed' | 'declined' | 'revoked' | null;
}

/** A vehicle with its media, as GET/POST/PATCH /api/vehicles… and the admin lists answer it. */
export interface Vehicle {
  id: string;
  userId: string;
  /** The car across editions: its applications of different editions share it. */
  carId?: string;
  /**
   * The edition the application is for (the owner's and staff's reads); the owner's reads add its
   * phase now (`editionPhaseAt`: 'over' and 'archived' mean the application is frozen).
   */
  edition?: { year: number; name: string; phase?: EditionPhase } | null;
  title: string;
  name: string | null;
  brand: string;
  model: string;
  year: number;
  color: string | null;
  licensePlate: string | null;
  vin: string | null;
  tuningCategories: string[];
  descriptionShort: string | null;
  descriptionLong: string | null;
  status: VehicleStatus;
  ps: number;
  kw: number | null;
  torqueNm: number | null;
  weightKg: number;
  powerToWeight: number | null;
  topSpeedKmh: number;
  zeroToHundredS: number;
  quarterMileS: number | null;
  driveType: DriveType | Lowercase<DriveType> | null;
  displacementCcm: number | null;
  cylinders: number | null;
  fuelType: FuelType | null;
  specialMods: string | null;
  media: Media[];
  /** Admin lists only: the owner's contact data. */
  user?: Owner | null;
  /** Owner and admin reads: the invitation once the vehicle was invited, else null. */
  invitation?: VehicleInvitation | null;
  /** Owner reads: the participation fee of the invitation, where the edition has one; else null. */
  payment?: VehiclePayment | null;
  /** The owner's reads: the car's published jury places at its edition (absent or empty: none). */
  juryPlaces?: JuryPlace[];
  createdAt: string;
  updatedAt: string;
}

/** An image of the public list. */
export interface PublicMedia {
  type: string;
  url: string;
  thumbnailUrl: string | null;
  isHero: boolean;
  cropX: string;
  cropY: string;
  scale: string;
}

/** An entry of GET /api/vehicles/public (confirmed vehicles only): no owner data, plate or VIN. */
export interface PublicVehicle {
  id: string;
  name: string | null;
  brand: string;
  model: string;
  year: number;
  color: string | null;
  ps: number;
  torqueNm: number | null;
  topSpeedKmh: number;
  zeroToHundredS: number;
  cylinders: number | null;
  weightKg: number;
  driveType: string | null;
  tuningCategories: string[];
  descriptionShort: string | null;
  media: PublicMedia[];
  /** The image marked isHero, else the first; null without images. */
  hero: PublicMedia | null;
}

/**
 * A page of GET /api/admin/vehicles (staff): vehicles with owner, media and invitation, the number
 * of vehicles per status filter for the current search, and the cursor of the next page.
 */
export interface AdminVehiclePage {
  items: Vehicle[];
  /** Per status and 'all' (drafts included), over the whole search, whatever the page or tab. */
  counts: Record<VehicleStatus | 'all', number>;
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

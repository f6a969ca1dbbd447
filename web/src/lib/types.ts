/** Response shapes of the API as the client reads them (spec section 3 and 7). */
import type {
  ApprovalStatus,
  DriveType,
  FuelType,
  MediaType,
  Role,
  VehicleStatus,
} from '@schlosstreffen/shared';

export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  phone: string | null;
  instagramHandle: string | null;
  role: Role;
  consentMedia: boolean;
  consentQuartett: boolean;
  consentContact: boolean;
  emailVerified: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Owner {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  role: Role;
}

export interface Media {
  id: string;
  vehicleId: string;
  type: MediaType;
  /** Object path: /objects/{key} */
  url: string;
  thumbnailUrl: string | null;
  /** WebP renditions by width (480, 1280) once the worker has written them. */
  thumbnails: Record<string, string> | null;
  altText: string | null;
  isHero: boolean;
  priority: number;
  width: number | null;
  height: number | null;
  fileSize: number | null;
  /** Decimals as text, e.g. "50.00". */
  cropX: string;
  cropY: string;
  scale: string;
  approvalStatus: ApprovalStatus;
  /** Why the worker refused the file (not an image, too large, …), in German. */
  rejectionReason: string | null;
  createdAt: string;
}

export interface VehicleInvitation {
  startNumber: number;
  parkingZone: string;
  checkedIn: boolean;
  checkedInAt: string | null;
}

export interface Vehicle {
  id: string;
  userId: string;
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
  /** Admin lists only. */
  user?: Owner | null;
  /** Owner and admin reads: the invitation once the vehicle was invited, else null. */
  invitation?: VehicleInvitation | null;
  createdAt: string;
  updatedAt: string;
}

export interface PublicMedia {
  type: MediaType;
  url: string;
  thumbnailUrl: string | null;
  isHero: boolean;
  cropX: string;
  cropY: string;
  scale: string;
}

/** An entry of GET /api/vehicles/public (confirmed vehicles only). */
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
  hero: PublicMedia | null;
}

/** An entry of GET /api/admin/media (staff): an image with its vehicle and the vehicle's owner. */
export interface MediaLibraryItem extends Media {
  vehicle: Pick<Vehicle, 'id' | 'name' | 'brand' | 'model' | 'year' | 'status'>;
  user: Owner | null;
}

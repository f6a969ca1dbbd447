import type { ApprovalStatus, MediaType, VehicleStatus } from '../status.js';
import type { Owner } from './account.js';

/** An image of a vehicle as owners and staff see it. */
export interface Media {
  id: string;
  vehicleId: string;
  type: MediaType;
  /** Object path: /objects/{key} */
  url: string;
  thumbnailUrl: string | null;
  /** WebP renditions by width (THUMBNAIL_WIDTHS) once the worker has written them. */
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

/** An entry of GET /api/admin/media (staff): an image with its vehicle and the vehicle's owner. */
export interface MediaLibraryItem extends Media {
  vehicle: {
    id: string;
    name: string | null;
    brand: string;
    model: string;
    year: number;
    status: VehicleStatus;
  };
  user: Owner | null;
}

/** POST /api/objects/upload: a presigned PUT for one key the server chose. */
export interface SignedUpload {
  uploadURL: string;
  /** The same, as Uppy's getUploadParameters expects it. */
  method: 'PUT';
  url: string;
  fields: Record<string, never>;
  headers: Record<string, string>;
  key: string;
  /** Where the object will be read: /objects/{key}. */
  objectPath: string;
  /** Seconds the signature is valid. */
  expires: number;
}

/** A page of GET /api/admin/media (staff), newest first. */
export interface MediaLibraryPage {
  items: MediaLibraryItem[];
  /** Every image of the library ('Insgesamt N Bilder'). */
  total: number;
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

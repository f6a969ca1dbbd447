import { defineEntity, p } from '@mikro-orm/core';
import { Vehicle } from '../vehicles/vehicle.entity.js';

/** One public list entry as served by GET /api/vehicles/public (spec section 7). */
export interface PublicVehicleData {
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
  /** The image marked isHero, else the first (spec: hero rule); null without images. */
  hero: PublicMedia | null;
}

export interface PublicMedia {
  type: string;
  url: string;
  thumbnailUrl: string | null;
  isHero: boolean;
  cropX: string;
  cropY: string;
  scale: string;
}

/**
 * Read model of the public list: one row per confirmed vehicle, written in the same transaction as
 * the status change, edit or media change that affects it. Reads never touch the status log.
 */
const PublicVehicleSchema = defineEntity({
  name: 'PublicVehicle',
  tableName: 'public_vehicle',
  properties: {
    vehicle: () => p.oneToOne(Vehicle).primary().deleteRule('cascade').owner(),
    data: p.json<PublicVehicleData>(),
    /** When the vehicle became confirmed: the list's order. */
    listedAt: p.datetime().index(),
    updatedAt: p.datetime(),
  },
});

export class PublicVehicle extends PublicVehicleSchema.class {}
PublicVehicleSchema.setClass(PublicVehicle);

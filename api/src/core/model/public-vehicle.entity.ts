import { defineEntity, p } from '@mikro-orm/core';
import type * as Api from '@schlosstreffen/shared/api';
import { Vehicle } from './vehicle.entity.js';

/** One public list entry, exactly as GET /api/vehicles/public serves it. */
export type PublicVehicleData = Api.PublicVehicle;

/**
 * Read model of the public list: one row per confirmed vehicle, written in the same transaction as
 * the status change, edit or media change that affects it. Reads never touch the status log.
 */
const PublicVehicleSchema = defineEntity({
  name: 'PublicVehicle',
  tableName: 'public_vehicle',
  properties: {
    vehicle: () => p.oneToOne(Vehicle).primary().deleteRule('cascade').owner(),
    /** The vehicle's edition: the landing page lists the current edition's. */
    editionId: p.uuid(),
    data: p.json<PublicVehicleData>(),
    /** When the vehicle became confirmed: the list's order. */
    listedAt: p.datetime().index(),
    updatedAt: p.datetime(),
    /** The object key of the car's link preview (worker-made, 1200×630); null until it is made. */
    shareImage: p.string().length(200).nullable(),
  },
});

export class PublicVehicle extends PublicVehicleSchema.class {}
PublicVehicleSchema.setClass(PublicVehicle);

import { defineEntity, p } from '@mikro-orm/core';
import { DRIVE_TYPES, FUEL_TYPES, VEHICLE_STATUSES } from '@schlosstreffen/shared';
import { createdAt, updatedAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { Media } from './media.entity.js';
import { User } from './user.entity.js';

const VehicleSchema = defineEntity({
  name: 'Vehicle',
  tableName: 'vehicle',
  properties: {
    id: uuidPk(),
    user: () => p.manyToOne(User).deleteRule('cascade').index(),
    /** The meeting this application is for: a car applies anew for each edition. */
    edition: () => p.manyToOne(Edition),
    /** The car across editions: an application carried over from an earlier one keeps its car id. */
    carId: p.uuid().defaultRaw('gen_random_uuid()'),
    /** Always brand plus model. */
    title: p.string().length(220),
    name: p.string().length(100).nullable(),
    brand: p.string().length(100),
    model: p.string().length(100),
    year: p.integer(),
    color: p.string().length(60).nullable(),
    licensePlate: p.string().length(20).nullable(),
    vin: p.string().length(17).nullable(),
    tuningCategories: p.json<string[]>().default('[]'),
    descriptionShort: p.text().nullable(),
    descriptionLong: p.text().nullable(),
    /** Projection of the status log, written in the same transaction as each log row. */
    status: p.enum(VEHICLE_STATUSES).default('draft').index(),
    ps: p.integer(),
    kw: p.integer().nullable(),
    torqueNm: p.integer().nullable(),
    weightKg: p.integer(),
    powerToWeight: p.decimal('number').precision(6).scale(2).nullable(),
    topSpeedKmh: p.integer(),
    zeroToHundredS: p.decimal('number').precision(4).scale(1),
    quarterMileS: p.decimal('number').precision(4).scale(1).nullable(),
    driveType: p.enum(DRIVE_TYPES).nullable(),
    displacementCcm: p.integer().nullable(),
    cylinders: p.integer().nullable(),
    fuelType: p.enum(FUEL_TYPES).nullable(),
    specialMods: p.text().nullable(),
    media: () => p.oneToMany(Media).mappedBy('vehicle').orderBy({ priority: 'asc', createdAt: 'asc' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export class Vehicle extends VehicleSchema.class {}
VehicleSchema.setClass(Vehicle);

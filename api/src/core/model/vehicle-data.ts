import type { Vehicle } from './vehicle.entity.js';

/**
 * A vehicle's own data as the API and the personal-data export state it: decimals as numbers,
 * absent values as null.
 */
export function vehicleData(vehicle: Vehicle) {
  return {
    name: vehicle.name ?? null,
    brand: vehicle.brand,
    model: vehicle.model,
    year: vehicle.year,
    color: vehicle.color ?? null,
    licensePlate: vehicle.licensePlate ?? null,
    vin: vehicle.vin ?? null,
    tuningCategories: vehicle.tuningCategories,
    descriptionShort: vehicle.descriptionShort ?? null,
    descriptionLong: vehicle.descriptionLong ?? null,
    specialMods: vehicle.specialMods ?? null,
    ps: vehicle.ps,
    kw: vehicle.kw ?? null,
    torqueNm: vehicle.torqueNm ?? null,
    weightKg: vehicle.weightKg,
    topSpeedKmh: vehicle.topSpeedKmh,
    zeroToHundredS: Number(vehicle.zeroToHundredS),
    quarterMileS: vehicle.quarterMileS == null ? null : Number(vehicle.quarterMileS),
    driveType: vehicle.driveType ?? null,
    displacementCcm: vehicle.displacementCcm ?? null,
    cylinders: vehicle.cylinders ?? null,
    fuelType: vehicle.fuelType ?? null,
  };
}

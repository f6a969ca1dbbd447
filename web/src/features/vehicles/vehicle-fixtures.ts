import type { Media, Vehicle, VehicleInvitation } from '@schlosstreffen/shared/api';

/** Test data: an API vehicle (as GET /api/vehicles returns it) with overrides. */
export function makeVehicle(overrides: Partial<Vehicle> = {}): Vehicle {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    userId: 'u1',
    title: 'BMW M3',
    name: null,
    brand: 'BMW',
    model: 'M3',
    year: 1988,
    color: 'Henna-Rot',
    licensePlate: null,
    vin: null,
    tuningCategories: [],
    descriptionShort: null,
    descriptionLong: null,
    status: 'draft',
    ps: 238,
    kw: null,
    torqueNm: 240,
    weightKg: 1200,
    powerToWeight: null,
    topSpeedKmh: 241,
    zeroToHundredS: 6.7,
    quarterMileS: null,
    driveType: 'RWD',
    displacementCcm: null,
    cylinders: 4,
    fuelType: 'Benzin',
    specialMods: null,
    media: [],
    invitation: null,
    createdAt: '2026-01-10T10:00:00.000Z',
    updatedAt: '2026-01-10T10:00:00.000Z',
    ...overrides,
  };
}

/** Test data: an image of a vehicle with overrides. */
export function makeMedia(overrides: Partial<Media> = {}): Media {
  return {
    id: 'm1',
    vehicleId: 'a1b2c3d4-0000-4000-8000-000000000001',
    type: 'image',
    url: '/objects/uploads/m1.jpg',
    thumbnailUrl: '/objects/thumbs/m1/480.webp',
    thumbnails: null,
    altText: null,
    isHero: false,
    priority: 0,
    width: 1600,
    height: 1000,
    fileSize: 100_000,
    cropX: '50.00',
    cropY: '50.00',
    scale: '100.00',
    approvalStatus: 'auto',
    rejectionReason: null,
    createdAt: '2026-01-10T10:00:00.000Z',
    ...overrides,
  };
}

/** Test data: a holding invitation (issued 1 April, confirm by 15 April) with overrides. */
export function makeInvitation(overrides: Partial<VehicleInvitation> = {}): VehicleInvitation {
  return {
    startNumber: 7,
    parkingZone: 'A',
    checkedIn: false,
    checkedInAt: null,
    issuedAt: '2026-04-01T10:00:00.000Z',
    confirmBy: '2026-04-15T10:00:00.000Z',
    releasedAt: null,
    releaseReason: null,
    ...overrides,
  };
}

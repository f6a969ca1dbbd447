import { wrap } from '@mikro-orm/core';
import type * as Api from '@schlosstreffen/shared/api';
import { presentMedia } from '../media/media.presenter.js';
import { presentOwner } from '../auth/user.presenter.js';
import type { Invitation } from '../../core/invitations/invitation.entity.js';
import type { Vehicle } from '../../core/vehicles/vehicle.entity.js';

/** What owner and staff see of an invitation; the check-in code itself travels only by mail. */
export function presentInvitation(invitation: Invitation | undefined): Api.VehicleInvitation | null {
  if (!invitation) return null;
  return {
    startNumber: invitation.startNumber,
    parkingZone: invitation.parkingZone,
    checkedIn: invitation.checkedIn,
    checkedInAt: invitation.checkedInAt?.toISOString() ?? null,
  };
}

/**
 * A vehicle with its media; `withOwner` adds the owner's contact data (reviewers and admins only),
 * `invitations` (from VehicleService.invitationsOf) the vehicle's invitation or null.
 */
export function presentVehicle(
  vehicle: Vehicle,
  { withOwner = false, invitations }: { withOwner?: boolean; invitations?: Map<string, Invitation> } = {},
): Api.Vehicle {
  return {
    id: vehicle.id,
    userId: vehicle.user.id,
    title: vehicle.title,
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
    status: vehicle.status,
    ps: vehicle.ps,
    kw: vehicle.kw ?? null,
    torqueNm: vehicle.torqueNm ?? null,
    weightKg: vehicle.weightKg,
    powerToWeight: vehicle.powerToWeight ?? null,
    topSpeedKmh: vehicle.topSpeedKmh,
    zeroToHundredS: Number(vehicle.zeroToHundredS),
    quarterMileS: vehicle.quarterMileS == null ? null : Number(vehicle.quarterMileS),
    driveType: vehicle.driveType ?? null,
    displacementCcm: vehicle.displacementCcm ?? null,
    cylinders: vehicle.cylinders ?? null,
    fuelType: vehicle.fuelType ?? null,
    specialMods: vehicle.specialMods ?? null,
    media: vehicle.media.isInitialized() ? vehicle.media.getItems().map(presentMedia) : [],
    ...(withOwner ? { user: wrap(vehicle.user).isInitialized() ? presentOwner(vehicle.user) : null } : {}),
    ...(invitations ? { invitation: presentInvitation(invitations.get(vehicle.id)) } : {}),
    createdAt: vehicle.createdAt.toISOString(),
    updatedAt: vehicle.updatedAt.toISOString(),
  };
}

import { wrap } from '@mikro-orm/core';
import type { EditionPhase } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import { presentMedia } from '../media/media.presenter.js';
import { presentOwner } from '../auth/user.presenter.js';
import type { Invitation } from '../../core/model/invitation.entity.js';
import type { VehiclePayment } from '@schlosstreffen/shared/api';
import type { Vehicle } from '../../core/model/vehicle.entity.js';
import { vehicleData } from '../../core/model/vehicle-data.js';

/** What owner and staff see of an invitation; the check-in code itself travels only by mail. */
export function presentInvitation(invitation: Invitation | undefined): Api.VehicleInvitation | null {
  if (!invitation) return null;
  return {
    startNumber: invitation.startNumber,
    parkingZone: invitation.parkingZone,
    checkedIn: invitation.checkedIn,
    checkedInAt: invitation.checkedInAt?.toISOString() ?? null,
    issuedAt: invitation.issuedAt.toISOString(),
    confirmBy: invitation.confirmBy?.toISOString() ?? null,
    releasedAt: invitation.releasedAt?.toISOString() ?? null,
    releaseReason: invitation.releaseReason ?? null,
  };
}

/**
 * A vehicle with its media; `withOwner` adds the owner's contact data (reviewers and admins only),
 * `invitations` (from VehicleService.invitationsOf) the vehicle's invitation or null, `phases` (by
 * edition id, from phasesOf) its edition's phase.
 */
export function presentVehicle(
  vehicle: Vehicle,
  {
    withOwner = false,
    invitations,
    payments,
    phases,
  }: {
    withOwner?: boolean;
    invitations?: Map<string, Invitation>;
    /** By invitation id (paymentsOfInvitations): the owner's view of the fee. */
    payments?: Map<string, VehiclePayment>;
    phases?: Map<string, EditionPhase>;
  } = {},
): Api.Vehicle {
  const phase = phases?.get(vehicle.edition.id);
  return {
    id: vehicle.id,
    userId: vehicle.user.id,
    carId: vehicle.carId,
    edition: wrap(vehicle.edition).isInitialized()
      ? { year: vehicle.edition.year, name: vehicle.edition.name, ...(phase ? { phase } : {}) }
      : null,
    title: vehicle.title,
    ...vehicleData(vehicle),
    status: vehicle.status,
    powerToWeight: vehicle.powerToWeight ?? null,
    media: vehicle.media.isInitialized() ? vehicle.media.getItems().map(presentMedia) : [],
    ...(withOwner ? { user: wrap(vehicle.user).isInitialized() ? presentOwner(vehicle.user) : null } : {}),
    ...(invitations ? { invitation: presentInvitation(invitations.get(vehicle.id)) } : {}),
    ...(payments ? { payment: payments.get(invitations?.get(vehicle.id)?.id ?? '') ?? null } : {}),
    createdAt: vehicle.createdAt.toISOString(),
    updatedAt: vehicle.updatedAt.toISOString(),
  };
}

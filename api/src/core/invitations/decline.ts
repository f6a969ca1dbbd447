import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { INVITATION_MESSAGES, PLACES_MESSAGES } from '@schlosstreffen/shared';
import { conflict, notFound } from '../errors.js';
import { consentWithdrawn } from '../model/consent-state.js';
import { Invitation } from '../model/invitation.entity.js';
import type { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { recordStatusChange } from '../status-log/status-log.js';
import { holdsPlace, queueOwnerMail, releasePlace, SYSTEM_ACTOR, type PlacesOptions } from './places.js';

export type DeclineVia = 'dashboard' | 'link';

/**
 * An owner gives up an invitation or a confirmed place: the vehicle becomes rejected (the owner
 * sees why), its place is freed for the waitlist, its start number stays taken, and a mail says so.
 * From the dashboard the owner is the actor; from the mail's link (no sign-in) the system records it.
 */
export async function declineLocked(
  em: EntityManager,
  vehicle: Vehicle,
  owner: User,
  via: DeclineVia,
  options: PlacesOptions,
  /** The app's clock: when the place is given up (the fee's refund rule reads it). */
  now: Date = new Date(),
): Promise<'declined' | 'already_declined'> {
  const invitation = await em.findOne(Invitation, { vehicle: vehicle.id });
  if (!holdsPlace(vehicle.status)) {
    if (invitation?.releaseReason === 'declined') return 'already_declined';
    throw conflict(INVITATION_MESSAGES.declineOnlyInvited);
  }
  recordStatusChange(em, vehicle, via === 'link' ? SYSTEM_ACTOR : { kind: 'user', user: owner }, {
    to: 'rejected',
    comment: PLACES_MESSAGES.declinedLog(via, invitation?.startNumber ?? null),
  });
  await releasePlace(em, vehicle, 'declined', now);
  if (!(await consentWithdrawn(em, vehicle.id, 'contact'))) {
    queueOwnerMail(em, 'invitation-declined', owner, vehicle, options);
  }
  await refreshPublicVehicles(em, [vehicle.id]);
  return 'declined';
}

/** Locks a vehicle by its invitation (decline link, confirm link). */
export async function lockVehicleOf(em: EntityManager, invitation: Invitation): Promise<Vehicle> {
  const vehicle = await em.findOne(
    Vehicle,
    { id: invitation.vehicle.id },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!vehicle) throw notFound(INVITATION_MESSAGES.declineLinkInvalid);
  return vehicle;
}

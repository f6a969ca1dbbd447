import type { EntityManager } from '@mikro-orm/postgresql';
import { STATUS_MAILS, vehicleDisplayName, type VehicleStatus } from '@schlosstreffen/shared';
import { consentWithdrawn } from '../model/consent-state.js';
import { enqueue } from '../outbox/outbox.js';
import { enqueuePrintPhoto } from '../quartett/print-photo.js';
import type { User } from '../model/user.entity.js';
import type { Vehicle } from '../model/vehicle.entity.js';

/** What every mail about an application tells its owner: their first name, the car, the dashboard. */
export function ownerMailProps(owner: User, vehicle: Vehicle, publicUrl: string) {
  return {
    firstName: owner.firstName,
    vehicleTitle: vehicleDisplayName(vehicle),
    dashboardUrl: `${publicUrl}/dashboard`,
  };
}

/**
 * Writes the outbox rows a status event causes, in the transaction that records it (the mail per
 * status is shared's STATUS_MAILS, which the staff's bulk preview announces too). The job id is
 * the row id and the email log is keyed by it, so each event's mail goes out at most once. No mail
 * goes to an owner who withdrew the consent to be contacted about the application. A confirmed
 * vehicle's card can be printed from now on: its print photo is made.
 * Returns whether anything was queued (the caller wakes the relay after commit).
 */
export async function enqueueStatusEffects(
  em: EntityManager,
  vehicle: Vehicle,
  owner: User,
  status: VehicleStatus,
  publicUrl: string,
): Promise<boolean> {
  if (status === 'invited') {
    enqueue(em, 'invitation.issue', { vehicleId: vehicle.id });
    return true;
  }
  const printPhoto = enqueuePrintPhoto(em, { id: vehicle.id, status });
  const template = STATUS_MAILS[status];
  if (!template || (await consentWithdrawn(em, vehicle.id, 'contact'))) return printPhoto;
  enqueue(em, 'email.send', {
    template,
    to: owner.email,
    props: ownerMailProps(owner, vehicle, publicUrl),
    vehicleId: vehicle.id,
  });
  return true;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { EmailTemplateName, VehicleStatus } from '@schlosstreffen/shared';
import { enqueue } from '../../outbox/outbox.js';
import type { User } from '../users/user.entity.js';
import type { Vehicle } from '../vehicles/vehicle.entity.js';

/** The mail each status event sends its applicant; invited issues the invitation, whose job mails it. */
export const STATUS_MAILS: Partial<Record<VehicleStatus, EmailTemplateName>> = {
  submitted: 'application-received',
  waitlist: 'application-waitlist',
  confirmed: 'application-confirmed',
  rejected: 'application-rejected',
};

/**
 * Writes the outbox rows a status event causes, in the transaction that records it. The job id is
 * the row id and the email log is keyed by it, so each event's mail goes out at most once.
 * Returns whether anything was queued (the caller wakes the relay after commit).
 */
export function enqueueStatusEffects(
  em: EntityManager,
  vehicle: Vehicle,
  owner: User,
  status: VehicleStatus,
  publicUrl: string,
): boolean {
  if (status === 'invited') {
    enqueue(em, 'invitation.issue', { vehicleId: vehicle.id });
    return true;
  }
  const template = STATUS_MAILS[status];
  if (!template) return false;
  enqueue(em, 'email.send', {
    template,
    to: owner.email,
    props: {
      firstName: owner.firstName,
      vehicleTitle: vehicle.name || `${vehicle.brand} ${vehicle.model}`,
      dashboardUrl: `${publicUrl}/dashboard`,
    },
  });
  return true;
}

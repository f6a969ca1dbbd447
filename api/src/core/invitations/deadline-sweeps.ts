import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PLACES_MESSAGES, venueDateTime } from '@schlosstreffen/shared';
import { consentWithdrawn } from '../model/consent-state.js';
import { Invitation } from '../model/invitation.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { recordStatusChange } from '../status-log/status-log.js';
import { reminderAt } from './deadlines.js';
import { invitationConfirmUrl, invitationDeclineUrl } from './invitation-links.js';
import { lapsesDue, remindersDue } from './invitations.queries.js';
import { queueOwnerMail, releasePlace, SYSTEM_ACTOR, type PlacesOptions } from './places.js';

/** The date-driven side of invitations, run by the scheduler: reminders before and lapses after confirm-by. */

/**
 * Reminder mails for invited vehicles whose reminder moment has come, once per invitation
 * (`reminded_at`). Returns how many were queued.
 */
export async function remindDue(em: EntityManager, options: PlacesOptions, asOf: Date): Promise<number> {
  if (options.event.invitations.reminderDays <= 0) return 0;
  const rows = await remindersDue(em, options.event.edition.id, asOf, options.event.invitations.reminderDays);
  let sent = 0;
  for (const row of rows) {
    const queued = await em.fork().transactional(async (tx) => {
      const vehicle = await tx.findOne(
        Vehicle,
        { id: row.vehicle_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const invitation = await tx.findOne(Invitation, { id: row.invitation_id });
      if (
        !vehicle ||
        !invitation ||
        vehicle.status !== 'invited' ||
        invitation.releasedAt ||
        invitation.remindedAt
      )
        return false;
      const due = reminderAt(invitation, options.event);
      if (!due || due > asOf || !invitation.confirmBy || invitation.confirmBy <= asOf) return false;
      invitation.remindedAt = asOf;
      if (await consentWithdrawn(tx, vehicle.id, 'contact')) return false;
      const owner = await tx.findOneOrFail(User, vehicle.user.id);
      queueOwnerMail(
        tx,
        'invitation-reminder',
        owner,
        vehicle,
        options,
        { confirmBy: invitation.confirmBy.toISOString(), startNumber: invitation.startNumber },
        {
          confirmUrl: invitationConfirmUrl(options.publicUrl, options.secret, invitation),
          declineUrl: invitationDeclineUrl(options.publicUrl, options.secret, invitation),
        },
      );
      return true;
    });
    if (queued) sent += 1;
  }
  return sent;
}

/**
 * Invitations unconfirmed past their confirm-by date lapse: the vehicle becomes rejected by the
 * system (the owner sees why), its place is freed, its start number stays taken, and a mail says
 * so. Returns the lapsed vehicles' ids. The caller moves the waitlist afterwards.
 */
export async function lapseDue(em: EntityManager, options: PlacesOptions, asOf: Date): Promise<string[]> {
  const rows = await lapsesDue(em, options.event.edition.id, asOf);
  const lapsed: string[] = [];
  for (const row of rows) {
    const done = await em.fork().transactional(async (tx) => {
      const vehicle = await tx.findOne(
        Vehicle,
        { id: row.vehicle_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const invitation = await tx.findOne(Invitation, { id: row.invitation_id });
      if (!vehicle || !invitation || vehicle.status !== 'invited' || invitation.releasedAt) return false;
      if (!invitation.confirmBy || invitation.confirmBy > asOf) return false;
      recordStatusChange(tx, vehicle, SYSTEM_ACTOR, {
        to: 'rejected',
        comment: PLACES_MESSAGES.lapsedLog(venueDateTime(invitation.confirmBy), invitation.startNumber),
      });
      await releasePlace(tx, vehicle, 'lapsed', asOf, { moveUp: false });
      if (!(await consentWithdrawn(tx, vehicle.id, 'contact'))) {
        const owner = await tx.findOneOrFail(User, vehicle.user.id);
        queueOwnerMail(tx, 'invitation-lapsed', owner, vehicle, options, {
          confirmBy: invitation.confirmBy.toISOString(),
        });
      }
      await refreshPublicVehicles(tx, [vehicle.id]);
      return true;
    });
    if (done) lapsed.push(row.vehicle_id);
  }
  return lapsed;
}

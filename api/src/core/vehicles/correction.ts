/**
 * An admin's correction of a past edition's record, the one change an edition that is over takes: a
 * wrong status, or whether a confirmed car came through the gate, with a reason. It is a status-log
 * row (kind 'correction', the reason its note) and the route's audit row, in one transaction; the
 * public list's row of the car (which the look back reads) follows. No mail goes out, no place is
 * freed or passed on: the meeting is over.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { CORRECTION_MESSAGES, type Correction } from '@schlosstreffen/shared';
import { conflict, invalid } from '../errors.js';
import { editionPhaseOf } from '../editions/frozen.js';
import { Invitation } from '../model/invitation.entity.js';
import type { User } from '../model/user.entity.js';
import type { Vehicle } from '../model/vehicle.entity.js';
import type { PendingAudit } from '../pending-audit.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { recordCorrection } from '../status-log/status-log.js';
import { isOverPhase } from '@schlosstreffen/shared';

/** Corrects the locked vehicle (the caller authorized the admin) at `at`, in the caller's transaction. */
export async function correctLocked(
  em: EntityManager,
  admin: User,
  vehicle: Vehicle,
  input: Correction,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  const { edition, phase } = await editionPhaseOf(em, vehicle.edition.id, at);
  if (!isOverPhase(phase)) throw conflict(CORRECTION_MESSAGES.notOver(edition.name));
  const from = vehicle.status;
  const to = input.status ?? from;
  const invitation = await em.findOne(Invitation, { vehicle: vehicle.id });
  const wasCheckedIn = Boolean(invitation?.checkedInAt);
  const checkIn =
    input.checkedIn !== undefined && input.checkedIn !== wasCheckedIn ? input.checkedIn : undefined;
  if (to === from && checkIn === undefined) throw invalid(CORRECTION_MESSAGES.nothing);
  if (checkIn !== undefined) {
    // Only a confirmed car with its invitation came to the gate, or did not.
    if (to !== 'confirmed' || !invitation || invitation.releasedAt)
      throw conflict(CORRECTION_MESSAGES.checkInNeedsConfirmed);
    // Checked in by correction: when it was recorded; the status log says why.
    invitation.checkedIn = checkIn;
    invitation.checkedInAt = checkIn ? at : null;
    invitation.checkedInScanId = null;
  }
  recordCorrection(em, vehicle, admin, { to, note: CORRECTION_MESSAGES.note(input.reason, checkIn) });
  await refreshPublicVehicles(em, [vehicle.id]);
  audit?.record(em, {
    target: vehicle.id,
    details: {
      edition: edition.year,
      ...(to !== from ? { status: { from, to } } : {}),
      ...(checkIn !== undefined ? { checkedIn: { from: wasCheckedIn, to: checkIn } } : {}),
    },
  });
}

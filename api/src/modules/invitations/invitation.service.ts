import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENT_TIMEZONE, INVITATION_MESSAGES, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { createLinkToken, verifyLinkToken } from '../../lib/link-token.js';
import { refreshPublicVehicles } from '../public-vehicles/public-vehicle.projection.js';
import { enqueueStatusEffects } from '../status-log/status-effects.js';
import { recordStatusChange, userActor } from '../status-log/status-log.js';
import { User } from '../users/user.entity.js';
import { Vehicle } from '../vehicles/vehicle.entity.js';
import { Invitation } from './invitation.entity.js';

const CONFIRM_PURPOSE = 'confirm';

/** Token of the invitation mail's confirm link. */
export const createInvitationConfirmToken = (secret: string, invitationId: string) =>
  createLinkToken(secret, 'invitation', CONFIRM_PURPOSE, invitationId);

/** Link in the invitation mail; the page posts its token to /api/invitations/confirm. */
export const invitationConfirmUrl = (publicUrl: string, secret: string, invitationId: string) =>
  `${publicUrl}/einladung?token=${encodeURIComponent(createInvitationConfirmToken(secret, invitationId))}`;

/** HH:MM at the venue. */
const timeAtVenue = (date: Date) =>
  new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit', timeZone: EVENT_TIMEZONE }).format(
    date,
  );

/** What the gate sees: the invitation, the car and its owner (no contact data). */
export function presentCheckIn(invitation: Invitation, vehicle: Vehicle, owner: User) {
  return {
    startNumber: invitation.startNumber,
    parkingZone: invitation.parkingZone,
    checkedIn: invitation.checkedIn,
    checkedInAt: invitation.checkedInAt ?? null,
    vehicle: {
      id: vehicle.id,
      title: vehicle.name || `${vehicle.brand} ${vehicle.model}`,
      brand: vehicle.brand,
      model: vehicle.model,
      year: vehicle.year,
      color: vehicle.color ?? null,
      status: vehicle.status,
    },
    owner: { firstName: owner.firstName, lastName: owner.lastName },
  };
}

export type CheckInView = ReturnType<typeof presentCheckIn>;
export type CheckInResult = { result: 'checked_in'; message: string } & CheckInView;

export interface InvitationServiceOptions {
  publicUrl: string;
  secret: string;
  onOutbox?: () => void;
}

/** The owner's confirmation and the gate's check-in. */
export class InvitationService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: InvitationServiceOptions,
  ) {}

  /**
   * The confirm link: invited → confirmed as the owner's status event (with its confirmation mail).
   * A second click answers that the vehicle was already confirmed.
   */
  async confirmByToken(
    token: string,
  ): Promise<{ status: 'confirmed' | 'already_confirmed'; message: string }> {
    const invitationId = verifyLinkToken(this.options.secret, 'invitation', CONFIRM_PURPOSE, token);
    const invitation = invitationId && (await this.em.findOne(Invitation, { id: invitationId }));
    if (!invitation) throw notFound(INVITATION_MESSAGES.confirmLinkInvalid);
    const outcome = await this.em.transactional(async (em) => {
      const vehicle = await em.findOne(
        Vehicle,
        { id: invitation.vehicle.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
      if (vehicle.status === 'confirmed') return 'already_confirmed' as const;
      if (vehicle.status !== 'invited') throw conflict(VEHICLE_MESSAGES.confirmOnlyInvited);
      const owner = await em.findOneOrFail(User, vehicle.user.id);
      recordStatusChange(em, vehicle, userActor(owner), { to: 'confirmed' });
      enqueueStatusEffects(em, vehicle, owner, 'confirmed', this.options.publicUrl);
      await refreshPublicVehicles(em, [vehicle.id]);
      return 'confirmed' as const;
    });
    if (outcome === 'confirmed') this.options.onOutbox?.();
    return {
      status: outcome,
      message: outcome === 'confirmed' ? INVITATION_MESSAGES.confirmed : INVITATION_MESSAGES.alreadyConfirmed,
    };
  }

  /**
   * Checks a car in by its check-in code or start number. The first check-in sets checkedIn and
   * checkedInAt; a repeated one changes nothing and is refused (409) with the time of the first.
   */
  async checkIn(code: string): Promise<CheckInResult> {
    const where = /^\d{1,9}$/.test(code) ? { startNumber: Number(code) } : { qrCode: code };
    return this.em.transactional(async (em) => {
      const invitation = await em.findOne(Invitation, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!invitation) throw notFound(INVITATION_MESSAGES.unknownCode);
      const vehicle = await em.findOneOrFail(Vehicle, invitation.vehicle.id);
      const owner = await em.findOneOrFail(User, vehicle.user.id);
      if (invitation.checkedIn && invitation.checkedInAt) {
        const view = presentCheckIn(invitation, vehicle, owner);
        const message = INVITATION_MESSAGES.alreadyCheckedIn(timeAtVenue(invitation.checkedInAt));
        throw new AppError(409, message, { details: { result: 'already_checked_in', ...view } });
      }
      if (vehicle.status !== 'invited' && vehicle.status !== 'confirmed') {
        throw conflict(INVITATION_MESSAGES.notAdmitted);
      }
      invitation.checkedIn = true;
      invitation.checkedInAt = new Date();
      return {
        result: 'checked_in',
        message: INVITATION_MESSAGES.checkedIn,
        ...presentCheckIn(invitation, vehicle, owner),
      };
    });
  }
}

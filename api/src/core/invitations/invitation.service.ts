import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { INVITATION_MESSAGES, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import { conflict, notFound } from '../errors.js';
import { verifyInvitationConfirmToken, verifyInvitationDeclineToken } from './invitation-links.js';
import { assertConfirmable } from './confirmable.js';
import { declineLocked, lockVehicleOf } from './decline.js';
import { placesOf, type PlacesSource } from './places.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { enqueueStatusEffects } from '../status-log/status-effects.js';
import { recordStatusChange, userActor } from '../status-log/status-log.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import { Review } from '../model/review.entity.js';
import { assertEditionOpenForChanges } from '../editions/frozen.js';

export interface InvitationServiceOptions {
  publicUrl: string;
  secret: string;
  places: PlacesSource;
  onOutbox?: () => void;
  /** The app's clock: an edition that is over keeps its invitations as they were. */
  now?: () => Date;
}

/** The owner's confirmation and decline by mailed link. */
export class InvitationService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: InvitationServiceOptions,
  ) {}

  /**
   * The confirm link: invited → confirmed as the owner's status event (with its confirmation mail).
   * A second click answers that the vehicle was already confirmed. The link names the issuance it
   * was mailed for: one of a place given up earlier confirms nothing and says so.
   */
  async confirmByToken(
    token: string,
  ): Promise<{ status: 'confirmed' | 'already_confirmed'; message: string; vehicleId: string }> {
    const subject = verifyInvitationConfirmToken(this.options.secret, token);
    const invitation = subject && (await this.em.findOne(Invitation, { id: subject.invitationId }));
    if (!invitation) throw notFound(INVITATION_MESSAGES.confirmLinkInvalid);
    const outcome = await this.em.transactional(async (em) => {
      const vehicle = await em.findOne(
        Vehicle,
        { id: invitation.vehicle.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
      await assertEditionOpenForChanges(em, invitation.edition.id, this.now(), 'owner');
      // Issued anew since the link was mailed (read again under the vehicle's lock). A link of the
      // earlier form names no issuance: it stands for the only one, if the vehicle was invited once.
      const current = await em.findOne(Invitation, { id: invitation.id }, { refresh: true });
      const superseded =
        subject.issuedAtMs === null
          ? (await em.count(Review, { vehicleId: vehicle.id, newStatus: 'invited' })) > 1
          : current?.issuedAt.getTime() !== subject.issuedAtMs;
      if (!current || superseded) throw conflict(INVITATION_MESSAGES.confirmLinkSuperseded);
      if (vehicle.status === 'confirmed') return 'already_confirmed' as const;
      if (vehicle.status !== 'invited') {
        throw conflict(
          invitation.releasedAt
            ? INVITATION_MESSAGES.invitationReleased
            : VEHICLE_MESSAGES.confirmOnlyInvited,
        );
      }
      await assertConfirmable(em, vehicle.id);
      const owner = await em.findOneOrFail(User, vehicle.user.id);
      recordStatusChange(em, vehicle, userActor(owner), { to: 'confirmed' });
      await enqueueStatusEffects(em, vehicle, owner, 'confirmed', this.options.publicUrl);
      await refreshPublicVehicles(em, [vehicle.id]);
      return 'confirmed' as const;
    });
    if (outcome === 'confirmed') this.options.onOutbox?.();
    return {
      status: outcome,
      message: outcome === 'confirmed' ? INVITATION_MESSAGES.confirmed : INVITATION_MESSAGES.alreadyConfirmed,
      vehicleId: invitation.vehicle.id,
    };
  }

  /**
   * The decline link: the owner gives up the place without signing in (the token names the
   * invitation and when it was issued). The page asks first; a second click answers that the
   * participation was already declined.
   */
  async declineByToken(token: string): Promise<{ status: 'declined' | 'already_declined'; message: string }> {
    const subject = verifyInvitationDeclineToken(this.options.secret, token);
    const invitation = subject && (await this.em.findOne(Invitation, { id: subject.invitationId }));
    if (!invitation || invitation.issuedAt.getTime() !== subject.issuedAtMs) {
      throw notFound(INVITATION_MESSAGES.declineLinkInvalid);
    }
    // Read before the transaction: it needs no second connection while holding its lock.
    const places = await placesOf(this.options.places, invitation.edition.id);
    const status = await this.em.transactional(async (em) => {
      const vehicle = await lockVehicleOf(em, invitation);
      await assertEditionOpenForChanges(em, invitation.edition.id, this.now(), 'owner');
      // Issued anew since the link was read: the link belongs to the place given up before.
      const current = await em.findOne(Invitation, { id: invitation.id }, { refresh: true });
      if (current?.issuedAt.getTime() !== subject.issuedAtMs)
        throw notFound(INVITATION_MESSAGES.declineLinkInvalid);
      const owner = await em.findOneOrFail(User, vehicle.user.id);
      return declineLocked(em, vehicle, owner, 'link', places, this.now());
    });
    if (status === 'declined') this.options.onOutbox?.();
    return {
      status,
      message: status === 'declined' ? INVITATION_MESSAGES.declined : INVITATION_MESSAGES.alreadyDeclined,
    };
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

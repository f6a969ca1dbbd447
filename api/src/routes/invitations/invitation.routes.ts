import Router from '@koa/router';
import {
  CheckInSchema,
  INVITATION_MESSAGES,
  InvitationConfirmSchema,
  InvitationDeclineSchema,
  vehicleDisplayName,
  venueTime,
} from '@schlosstreffen/shared';
import type {
  CheckInResult,
  CheckInView,
  InvitationConfirmResult,
  InvitationDeclineResult,
} from '@schlosstreffen/shared/api';
import { conflict } from '../../core/errors.js';
import { currentUser, requireRole, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import type { CheckInOutcome, InvitationService } from '../../core/invitations/invitation.service.js';

/** What the gate sees: the invitation, the car and its owner (no contact data). */
export function presentCheckIn({ invitation, vehicle, owner }: CheckInOutcome): CheckInView {
  return {
    startNumber: invitation.startNumber,
    parkingZone: invitation.parkingZone,
    checkedIn: invitation.checkedIn,
    checkedInAt: invitation.checkedInAt?.toISOString() ?? null,
    vehicle: {
      id: vehicle.id,
      title: vehicleDisplayName(vehicle),
      brand: vehicle.brand,
      model: vehicle.model,
      year: vehicle.year,
      color: vehicle.color ?? null,
      status: vehicle.status,
    },
    owner: { firstName: owner.firstName, lastName: owner.lastName },
  };
}

/** The invitation mail's confirm and decline links (no sign-in needed: the token is the proof) and the gate's check-in. */
export function invitationRoutes(invitations: InvitationService): Router<AppState> {
  const router = new Router<AppState>();

  router.post('/invitations/confirm', async (ctx) => {
    const { token } = validate(InvitationConfirmSchema, ctx.request.body);
    ctx.body = (await invitations.confirmByToken(token)) satisfies InvitationConfirmResult;
  });

  router.post('/invitations/decline', async (ctx) => {
    const { token } = validate(InvitationDeclineSchema, ctx.request.body);
    ctx.body = (await invitations.declineByToken(token)) satisfies InvitationDeclineResult;
  });

  router.post('/admin/check-in', requireRole('admin', 'reviewer'), async (ctx) => {
    const { code } = validate(CheckInSchema, ctx.request.body);
    const outcome = await invitations.checkIn(code, currentUser(ctx).id);
    const view = presentCheckIn(outcome);
    if (outcome.result === 'already_checked_in') {
      const message = INVITATION_MESSAGES.alreadyCheckedIn(venueTime(outcome.invitation.checkedInAt!));
      throw conflict(message, { result: 'already_checked_in', ...view });
    }
    ctx.body = {
      result: 'checked_in',
      message: INVITATION_MESSAGES.checkedIn,
      ...view,
    } satisfies CheckInResult;
  });

  return router;
}

import type Router from '@koa/router';
import { InvitationConfirmSchema, InvitationDeclineSchema } from '@schlosstreffen/shared';
import type { InvitationConfirmResult, InvitationDeclineResult } from '@schlosstreffen/shared/api';
import type { AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import type { InvitationService } from '../../core/invitations/invitation.service.js';
import { strictRouter } from '../../http/router.js';

/** The invitation mail's confirm and decline links (no sign-in needed: the token is the proof). */
export function invitationRoutes(invitations: InvitationService): Router<AppState> {
  const router = strictRouter<AppState>();

  router.post('/invitations/confirm', async (ctx) => {
    const { token } = validate(InvitationConfirmSchema, ctx.request.body);
    ctx.body = (await invitations.confirmByToken(token)) satisfies InvitationConfirmResult;
  });

  router.post('/invitations/decline', async (ctx) => {
    const { token } = validate(InvitationDeclineSchema, ctx.request.body);
    ctx.body = (await invitations.declineByToken(token)) satisfies InvitationDeclineResult;
  });

  return router;
}

import Router from '@koa/router';
import { CheckInSchema, InvitationConfirmSchema } from '@schlosstreffen/shared';
import { requireRole, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import type { InvitationService } from './invitation.service.js';

/** The invitation mail's confirm link (no sign-in needed: the token is the proof) and the gate's check-in. */
export function invitationRoutes(invitations: InvitationService): Router<AppState> {
  const router = new Router<AppState>();

  router.post('/invitations/confirm', async (ctx) => {
    const { token } = validate(InvitationConfirmSchema, ctx.request.body);
    ctx.body = await invitations.confirmByToken(token);
  });

  router.post('/admin/check-in', requireRole('admin', 'reviewer'), async (ctx) => {
    const { code } = validate(CheckInSchema, ctx.request.body);
    ctx.body = await invitations.checkIn(code);
  });

  return router;
}

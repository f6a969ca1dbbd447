import type Router from '@koa/router';
import { MAIL_FATE_MESSAGES } from '@schlosstreffen/shared';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ServerMessage, VehicleMails } from '@schlosstreffen/shared/api';
import { currentUser, requireRole, type AppContext, type AppState } from '../../http/context.js';
import { uuidParam } from '../../http/validate.js';
import { resendVehicleMail, vehicleMails } from '../../core/vehicles/vehicle-mails.js';
import { vehicleId } from './vehicle.routes.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, param } from '../../http/audited.js';

export interface VehicleMailRouteDeps {
  em: EntityManager;
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
}

/** The admin dialog's 'E-Mails' block: the mails about an application, their fate, 'Erneut senden'. */
export function vehicleMailRoutes({ em, onOutbox }: VehicleMailRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  const staff = requireRole('admin', 'reviewer');

  router.get('/admin/vehicles/:id/emails', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      mails: await vehicleMails(em.fork(), currentUser(ctx), vehicleId(ctx)),
    } satisfies VehicleMails;
  });

  // Which mail (its email log row) is in the details; the subject is the application.
  const resend = { target: param('id'), details: (ctx: AppContext) => ({ mail: ctx.params.mailId }) };
  router.post(
    '/admin/vehicles/:id/emails/:mailId/resend',
    staff,
    audited('mails.resend', resend),
    async (ctx) => {
      const mailId = uuidParam(ctx.params.mailId, MAIL_FATE_MESSAGES.mailNotFound);
      await resendVehicleMail(em, currentUser(ctx), vehicleId(ctx), mailId, auditOf(ctx));
      onOutbox?.();
      ctx.status = 202;
      ctx.body = { message: MAIL_FATE_MESSAGES.resent } satisfies ServerMessage;
    },
  );

  return router;
}

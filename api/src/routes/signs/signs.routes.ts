import type Router from '@koa/router';
import { SIGN_MESSAGES, SignExportCreateSchema, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import type { EventSource } from '../../core/editions/edition-events.js';
import type { SignService } from '../../core/signs/signs.service.js';
import { audited, auditOf, editionYear } from '../../http/audited.js';
import { requireRole, requireUser, type AppState } from '../../http/context.js';
import { editionOfRequest } from '../../http/edition.js';
import { strictRouter } from '../../http/router.js';
import { uuidParam, validate } from '../../http/validate.js';
import { presentSignExport } from './signs.presenter.js';

/**
 * Windshield signs. /admin/signs: an edition's set per format, for admins (`?edition=`, the current
 * one by default). /vehicles/{id}/sign: one car's sign, for its owner and staff. Signs change no
 * record, so they stay available once the meeting is over.
 */
export function signRoutes({ signs, events }: { signs: SignService; events: EventSource }): Router<AppState> {
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');
  const exportId = (value: string | undefined) => uuidParam(value, SIGN_MESSAGES.notFound);
  const vehicleId = (value: string | undefined) => uuidParam(value, VEHICLE_MESSAGES.vehicleNotFound);

  router.get('/admin/signs', admin, async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.body = (await signs.listSets(edition.id)).map((sign) => presentSignExport(sign));
  });

  router.post('/admin/signs', admin, audited('signs.export', { target: editionYear }), async (ctx) => {
    const { format } = validate(SignExportCreateSchema, ctx.request.body);
    const { edition } = await editionOfRequest(ctx, events);
    ctx.status = 201;
    ctx.body = presentSignExport(await signs.startSet(edition.id, format, auditOf(ctx)));
  });

  router.get('/admin/signs/:id', admin, async (ctx) => {
    ctx.body = presentSignExport(await signs.getSet(exportId(ctx.params.id)));
  });

  router.get('/vehicles/:id/sign', requireUser, async (ctx) => {
    const { sign, startNumber } = await signs.getForVehicle(ctx.state.user, vehicleId(ctx.params.id));
    ctx.body = presentSignExport(sign, startNumber);
  });

  router.post('/vehicles/:id/sign', requireUser, async (ctx) => {
    const { sign, startNumber } = await signs.startForVehicle(ctx.state.user, vehicleId(ctx.params.id));
    ctx.status = 202;
    ctx.body = presentSignExport(sign, startNumber);
  });

  return router;
}

import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountDeleteSchema, PRIVACY_MESSAGES, VEHICLE_MESSAGES } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { AuthService } from '../../core/accounts/auth.service.js';
import { giveInstagramConsent, listConsents, withdrawConsent } from '../../core/accounts/consents.js';
import { latestDataExport } from '../../core/accounts/data-export.js';
import { Vehicle } from '../../core/model/vehicle.entity.js';
import { authorize } from '../../core/vehicle-policy.js';
import { notFound } from '../../core/errors.js';
import { currentUser, requestNow, requireUser, type AppState } from '../../http/context.js';
import { uuidParam, validate } from '../../http/validate.js';
import { vehicleId } from '../vehicles/vehicle.routes.js';
import { presentConsent, presentDataExport } from './account.presenter.js';
import { strictRouter } from '../../http/router.js';

export interface AccountRouteDeps {
  em: EntityManager;
  auth: AuthService;
}

/** The signed-in person's own data: consents, data export, account deletion; a vehicle's consents. */
export function accountRoutes({ em, auth }: AccountRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();

  router.get('/account/consents', requireUser, async (ctx) => {
    const consents = await listConsents(em, { user: currentUser(ctx).id });
    ctx.body = consents.map(presentConsent) satisfies Api.Consent[];
  });

  router.post('/account/consents/:id/withdraw', requireUser, async (ctx) => {
    const id = uuidParam(ctx.params.id, PRIVACY_MESSAGES.consentNotFound);
    ctx.body = presentConsent(await withdrawConsent(em, currentUser(ctx), id));
  });

  router.get('/vehicles/:id/consents', requireUser, async (ctx) => {
    const vehicle = await em.findOne(Vehicle, { id: vehicleId(ctx) });
    if (!vehicle) throw notFound(VEHICLE_MESSAGES.vehicleNotFound);
    authorize(currentUser(ctx), 'read', vehicle);
    ctx.body = (await listConsents(em, { vehicle: vehicle.id })).map(presentConsent) satisfies Api.Consent[];
  });

  // The owner shows their Instagram name on their confirmed car's page (withdrawn like any consent).
  router.post('/vehicles/:id/consents/instagram', requireUser, async (ctx) => {
    const consent = await giveInstagramConsent(em, currentUser(ctx), vehicleId(ctx), requestNow(ctx));
    ctx.status = 201;
    ctx.body = presentConsent(consent) satisfies Api.Consent;
  });

  router.get('/account/export', requireUser, async (ctx) => {
    const row = await latestDataExport(em, currentUser(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = JSON.stringify(row ? presentDataExport(row) : null);
    ctx.type = 'application/json';
  });

  router.post('/account/export', requireUser, async (ctx) => {
    const row = await auth.requestDataExport(currentUser(ctx));
    ctx.status = 201;
    ctx.body = presentDataExport(row);
  });

  router.post('/account/delete', requireUser, async (ctx) => {
    const { password } = validate(AccountDeleteSchema, ctx.request.body);
    await auth.deleteOwnAccount(currentUser(ctx).id, password, requestNow(ctx));
    ctx.session = null;
    ctx.body = { message: PRIVACY_MESSAGES.accountDeleted } satisfies Api.ServerMessage;
  });

  return router;
}

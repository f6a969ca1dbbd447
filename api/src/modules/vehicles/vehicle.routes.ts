import Router from '@koa/router';
import {
  AdminStatusUpdateSchema,
  MediaCreateSchema,
  MediaUpdateSchema,
  OwnerStatusPatchSchema,
  VEHICLE_MESSAGES,
  VehicleEditSchema,
  VehicleSchema,
} from '@schlosstreffen/shared';
import type { EntityManager } from '@mikro-orm/postgresql';
import { currentUser, requireRole, requireUser, type AppState } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { presentLibraryItem, presentMedia } from '../media/media.presenter.js';
import { listAllMedia, type MediaService } from '../media/media.service.js';
import { presentVehicle } from './vehicle.presenter.js';
import type { VehicleService } from './vehicle.service.js';
import type { PublicListVersion } from '../public-vehicles/public-list-changes.js';
import { createPublicListReader } from '../public-vehicles/public-vehicle.read.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is no uuid names nothing: 404 rather than a database error. */
export function idParam(
  value: string | undefined,
  message: string = VEHICLE_MESSAGES.vehicleNotFound,
): string {
  if (!value || !UUID.test(value)) throw notFound(message);
  return value.toLowerCase();
}

export interface VehicleRouteDeps {
  em: EntityManager;
  vehicles: VehicleService;
  media: MediaService;
  /** Announced changes of the public list; without them every read checks the database. */
  publicListChanges?: PublicListVersion;
}

/** /vehicles/… for owners (and staff), the public list, and /admin/… for reviewers and admins. */
export function vehicleRoutes({
  em,
  vehicles,
  media,
  publicListChanges,
}: VehicleRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const readPublicList = createPublicListReader(em, publicListChanges);

  router.get('/vehicles/public', async (ctx) => {
    const list = await readPublicList();
    const coding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    const compressed = coding === 'br' || coding === 'gzip' ? coding : undefined;
    ctx.vary('Accept-Encoding');
    ctx.set('Cache-Control', 'public, max-age=0, must-revalidate');
    // One ETag per representation: a compressed body is other bytes than the plain one.
    ctx.set('ETag', compressed ? `${list.etag.slice(0, -1)}-${compressed}"` : list.etag);
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    if (compressed) {
      ctx.set('Content-Encoding', compressed);
      ctx.body = await list.encoded(compressed);
    } else {
      ctx.body = list.body;
    }
  });

  router.get('/vehicles', requireUser, async (ctx) => {
    const list = await vehicles.listOwn(currentUser(ctx));
    const invitations = await vehicles.invitationsOf(list);
    ctx.body = list.map((vehicle) => presentVehicle(vehicle, { invitations }));
  });

  router.post('/vehicles', requireUser, async (ctx) => {
    const input = validate(VehicleSchema, ctx.request.body);
    const vehicle = await vehicles.create(currentUser(ctx), input);
    ctx.status = 201;
    ctx.body = presentVehicle(vehicle);
  });

  router.get('/vehicles/:id', requireUser, async (ctx) => {
    const vehicle = await vehicles.get(currentUser(ctx), idParam(ctx.params.id));
    ctx.body = presentVehicle(vehicle, { invitations: await vehicles.invitationsOf([vehicle]) });
  });

  router.patch('/vehicles/:id', requireUser, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const status =
      'status' in body ? validate(OwnerStatusPatchSchema, { status: body.status }).status : undefined;
    const edit = validate(VehicleEditSchema, body);
    const vehicle = await vehicles.update(currentUser(ctx), idParam(ctx.params.id), edit, status);
    ctx.body = presentVehicle(vehicle);
  });

  router.delete('/vehicles/:id', requireUser, async (ctx) => {
    await vehicles.delete(currentUser(ctx), idParam(ctx.params.id));
    ctx.status = 204;
  });

  router.get('/vehicles/:id/reviews', requireUser, async (ctx) => {
    ctx.body = await vehicles.history(currentUser(ctx), idParam(ctx.params.id));
  });

  router.post('/vehicles/:id/media', requireUser, async (ctx) => {
    const input = validate(MediaCreateSchema, ctx.request.body);
    const created = await media.attach(currentUser(ctx), idParam(ctx.params.id), input);
    ctx.status = 201;
    ctx.body = presentMedia(created);
  });

  router.patch('/vehicles/:id/media', requireUser, async (ctx) => {
    const input = validate(MediaUpdateSchema, ctx.request.body);
    const items = await media.update(currentUser(ctx), idParam(ctx.params.id), input);
    ctx.body = items.map(presentMedia);
  });

  router.delete('/vehicles/:id/media/:mediaId', requireUser, async (ctx) => {
    await media.remove(
      currentUser(ctx),
      idParam(ctx.params.id),
      idParam(ctx.params.mediaId, VEHICLE_MESSAGES.mediaNotFound),
    );
    ctx.status = 204;
  });

  const staff = requireRole('admin', 'reviewer');

  router.get('/admin/vehicles', staff, async (ctx) => {
    const list = await vehicles.listAll();
    const invitations = await vehicles.invitationsOf(list);
    ctx.body = list.map((vehicle) => presentVehicle(vehicle, { withOwner: true, invitations }));
  });

  router.patch('/admin/vehicles/:id/status', staff, async (ctx) => {
    const input = validate(AdminStatusUpdateSchema, ctx.request.body);
    const vehicle = await vehicles.setStatus(currentUser(ctx), idParam(ctx.params.id), input);
    ctx.body = presentVehicle(vehicle);
  });

  router.get('/admin/media', staff, async (ctx) => {
    const items = await listAllMedia(em);
    ctx.body = items.map(presentLibraryItem);
  });

  return router;
}

import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import type * as Api from '@schlosstreffen/shared/api';
import {
  AdminMediaListQuerySchema,
  MediaCreateSchema,
  MediaUpdateSchema,
  UploadRequestSchema,
  VEHICLE_MESSAGES,
} from '@schlosstreffen/shared';
import type { MediaService } from '../../core/media/media.service.js';
import { mediaLibraryPage } from '../../core/vehicles/admin-list.js';
import type { EventSource } from '../../core/editions/edition-events.js';
import { editionOfRequest } from '../../http/edition.js';
import type { UploadService } from '../../core/media/upload.service.js';
import { currentUser, requireRole, requireUser, type AppState } from '../../http/context.js';
import { rateLimit, type Limiter } from '../../http/rate-limit.js';
import { uuidParam, validate } from '../../http/validate.js';
import { vehicleId } from '../vehicles/vehicle.routes.js';
import { presentLibraryItem, presentMedia } from './media.presenter.js';
import { strictRouter } from '../../http/router.js';

export interface MediaRouteDeps {
  em: EntityManager;
  media: MediaService;
  uploads: UploadService;
  /** Upload signatures per user. */
  uploadLimiter: Limiter;
  /** The staff library shows one edition's images (`?edition=`, else the current one's). */
  events: EventSource;
}

/**
 * Images: signing the browser's upload, attaching it to a vehicle, arranging and removing images
 * (owner and staff), and the staff media library.
 */
export function mediaRoutes({ em, media, uploads, uploadLimiter, events }: MediaRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();

  router.post(
    '/objects/upload',
    requireUser,
    rateLimit(uploadLimiter, (ctx) => ctx.state.user?.id ?? ctx.ip),
    async (ctx) => {
      const input = validate(UploadRequestSchema, ctx.request.body);
      ctx.body = (await uploads.presignPut(currentUser(ctx), input)) satisfies Api.SignedUpload;
    },
  );

  router.post('/vehicles/:id/media', requireUser, async (ctx) => {
    const input = validate(MediaCreateSchema, ctx.request.body);
    const created = await media.attach(currentUser(ctx), vehicleId(ctx), input);
    ctx.status = 201;
    ctx.body = presentMedia(created);
  });

  router.patch('/vehicles/:id/media', requireUser, async (ctx) => {
    const input = validate(MediaUpdateSchema, ctx.request.body);
    const items = await media.update(currentUser(ctx), vehicleId(ctx), input);
    ctx.body = items.map(presentMedia);
  });

  router.delete('/vehicles/:id/media/:mediaId', requireUser, async (ctx) => {
    await media.remove(
      currentUser(ctx),
      vehicleId(ctx),
      uuidParam(ctx.params.mediaId, VEHICLE_MESSAGES.mediaNotFound),
    );
    ctx.status = 204;
  });

  // One page of the media library, newest first, with the total.
  router.get('/admin/media', requireRole('admin', 'reviewer'), async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    const query = validate(AdminMediaListQuerySchema, ctx.query);
    const page = await mediaLibraryPage(em, edition.id, query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      items: page.items.map(presentLibraryItem),
      total: page.total,
      nextCursor: page.nextCursor,
    } satisfies Api.MediaLibraryPage;
  });

  return router;
}

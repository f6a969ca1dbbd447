import Router from '@koa/router';
import {
  MultipartCompleteSchema,
  MultipartCreateSchema,
  UploadRequestSchema,
  VEHICLE_MESSAGES,
} from '@schlosstreffen/shared';
import { currentUser, requireUser, type AppContext, type AppState } from '../../http/context.js';
import { AppError, badRequest } from '../../http/errors.js';
import { rateLimit, type Limiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import type { UploadService } from './upload.service.js';

const query = (ctx: AppContext, name: string) => {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : undefined;
};

/** A size given as a query value (s3/params), as a number for the shared schema. */
const sizeOf = (value: string | undefined) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * `POST /objects/upload` signs one PUT; `/uploads/s3/…` are the companion-style calls of Uppy's
 * @uppy/aws-s3 plugin (its `endpoint` option points at /api/uploads).
 */
export function uploadRoutes(uploads: UploadService, limiter: Limiter): Router<AppState> {
  const router = new Router<AppState>();
  const limited = rateLimit(limiter, (ctx) => ctx.state.user?.id ?? ctx.ip);

  router.post('/objects/upload', requireUser, limited, async (ctx) => {
    const input = validate(UploadRequestSchema, ctx.request.body);
    ctx.body = await uploads.presignPut(currentUser(ctx), input);
  });

  router.get('/uploads/s3/params', requireUser, limited, async (ctx) => {
    const input = validate(UploadRequestSchema, {
      filename: query(ctx, 'filename'),
      type: query(ctx, 'type'),
      size: sizeOf(query(ctx, 'size') ?? query(ctx, 'metadata[size]')),
    });
    ctx.body = await uploads.presignPut(currentUser(ctx), input);
  });

  router.get('/uploads/s3/sts', requireUser, () => {
    throw new AppError(403, VEHICLE_MESSAGES.stsUnsupported);
  });

  router.post('/uploads/s3/multipart', requireUser, limited, async (ctx) => {
    const input = validate(MultipartCreateSchema, ctx.request.body);
    ctx.body = await uploads.createMultipart(currentUser(ctx), input);
  });

  router.get('/uploads/s3/multipart/:uploadId', requireUser, async (ctx) => {
    ctx.body = await uploads.listParts(currentUser(ctx), ctx.params.uploadId!, keyParam(ctx));
  });

  router.get('/uploads/s3/multipart/:uploadId/:partNumber', requireUser, limited, async (ctx) => {
    const partNumber = Number(ctx.params.partNumber);
    ctx.body = await uploads.signPart(currentUser(ctx), ctx.params.uploadId!, keyParam(ctx), partNumber);
  });

  router.post('/uploads/s3/multipart/:uploadId/complete', requireUser, async (ctx) => {
    const input = validate(MultipartCompleteSchema, ctx.request.body);
    ctx.body = await uploads.completeMultipart(currentUser(ctx), ctx.params.uploadId!, keyParam(ctx), input);
  });

  router.delete('/uploads/s3/multipart/:uploadId', requireUser, async (ctx) => {
    ctx.body = await uploads.abortMultipart(currentUser(ctx), ctx.params.uploadId!, keyParam(ctx));
  });

  return router;
}

function keyParam(ctx: AppContext): string {
  const key = query(ctx, 'key');
  if (!key) throw badRequest(VEHICLE_MESSAGES.uploadKeyRequired);
  return key;
}

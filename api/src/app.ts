import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import Koa from 'koa';
import helmet from 'koa-helmet';
import send from 'koa-send';
import session from 'koa-session';
import { siteConfigScript, type SiteConfig } from '@schlosstreffen/shared';
import type { ApiConfig } from './config.js';
import { loadUser, type AppContext, type AppState } from './http/context.js';
import { errorHandler } from './http/error-handler.js';
import { notFound } from './http/errors.js';
import { createLimiter } from './http/rate-limit.js';
import { mutationGuard } from './http/security.js';
import type { Queues } from './outbox/queues.js';
import { createSessionStore, SESSION_MAX_AGE_MS } from './http/session-store.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { invitationRoutes } from './modules/invitations/invitation.routes.js';
import { InvitationService } from './modules/invitations/invitation.service.js';
import { mediaArchiveRoutes } from './modules/media/media-archive.js';
import { MediaService } from './modules/media/media.service.js';
import { objectRoutes } from './modules/objects/object.routes.js';
import type { PublicListVersion } from './modules/public-vehicles/public-list-changes.js';
import { queueDashboard } from './modules/queues/queue-dashboard.js';
import { quartettRoutes } from './modules/quartett/quartett.routes.js';
import { QuartettService } from './modules/quartett/quartett.service.js';
import { uploadRoutes } from './modules/uploads/upload.routes.js';
import { UploadService } from './modules/uploads/upload.service.js';
import { vehicleRoutes } from './modules/vehicles/vehicle.routes.js';
import { VehicleService } from './modules/vehicles/vehicle.service.js';
import { visitorRoutes } from './modules/visitors/visitor.routes.js';

export interface AppDeps {
  config: ApiConfig;
  em: EntityManager;
  redis: Redis;
  s3: S3Client;
  /** Signs browser uploads; its endpoint must be reachable from browsers (S3_PUBLIC_ENDPOINT). */
  presigner?: S3Client;
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
  /** The job queues, shown to admins at /admin/queues. */
  queues?: Queues;
  /** Announced changes of the public list, so it is served from memory until one comes. */
  publicListChanges?: PublicListVersion;
  /** Key prefix in Redis; rate-limit counters live under `<prefix>:rl:` (tests isolate by it). */
  redisPrefix?: string;
  log?: (error: unknown) => void;
}

export const SESSION_COOKIE = 'st.sid';

export function createApp(deps: AppDeps): Koa<AppState> {
  const { config, em, redis } = deps;
  const app = new Koa<AppState>({ proxy: config.trustProxy, keys: [config.sessionSecret] });
  app.silent = true;

  app.use(errorHandler(deps.log));
  app.use(helmet(helmetOptions(config)));
  app.use(healthRoutes({ em, redis, s3: deps.s3, bucket: config.s3.bucket }).routes());
  app.use(
    session(
      {
        key: SESSION_COOKIE,
        maxAge: SESSION_MAX_AGE_MS,
        httpOnly: true,
        sameSite: 'lax',
        secure: config.isProduction,
        signed: true,
        renew: true,
        store: createSessionStore(em),
      },
      app,
    ),
  );

  const prefix = `${deps.redisPrefix ?? 'st'}:rl`;
  const limits = config.rateLimits;
  const auth = new AuthService(em, {
    publicUrl: config.publicUrl,
    secret: config.sessionSecret,
    onOutbox: deps.onOutbox,
  });

  const api = new Router<AppState>({ prefix: '/api' });
  api.use(mutationGuard(config.allowedOrigins, ['/api/visitor-registrations/unsubscribe']));
  api.use(bodyParser({ enableTypes: ['json'], jsonLimit: '100kb', encoding: 'utf-8', jsonStrict: true }));
  api.use((_ctx, next) => RequestContext.create(em, next));
  api.use(loadUser(em));
  const authRouter = authRoutes(auth, {
    login: createLimiter(redis, 'login', limits.login, prefix),
    loginPerIp: createLimiter(
      redis,
      'login-ip',
      { ...limits.login, points: limits.login.points * 5 },
      prefix,
    ),
    register: createLimiter(redis, 'register', limits.register, prefix),
    forgotPassword: createLimiter(redis, 'forgot', limits.forgotPassword, prefix),
  });
  api.use(authRouter.routes(), authRouter.allowedMethods());
  const visitorRouter = visitorRoutes({
    em,
    config,
    onOutbox: deps.onOutbox,
    signUpLimiter: createLimiter(redis, 'visitor', limits.visitorSignUp, prefix),
  });
  api.use(visitorRouter.routes(), visitorRouter.allowedMethods());
  const vehicleRouter = vehicleRoutes({
    em,
    vehicles: new VehicleService(em, { publicUrl: config.publicUrl, onOutbox: deps.onOutbox }),
    media: new MediaService({ em, s3: deps.s3, bucket: config.s3.bucket, onOutbox: deps.onOutbox }),
    publicListChanges: deps.publicListChanges,
  });
  api.use(vehicleRouter.routes(), vehicleRouter.allowedMethods());
  const mediaArchiveRouter = mediaArchiveRoutes({ em, s3: deps.s3, bucket: config.s3.bucket, log: deps.log });
  api.use(mediaArchiveRouter.routes(), mediaArchiveRouter.allowedMethods());
  const quartettRouter = quartettRoutes({ quartett: new QuartettService(em, { onOutbox: deps.onOutbox }) });
  api.use(quartettRouter.routes(), quartettRouter.allowedMethods());
  const invitationRouter = invitationRoutes(
    new InvitationService(em, {
      publicUrl: config.publicUrl,
      secret: config.sessionSecret,
      onOutbox: deps.onOutbox,
    }),
  );
  api.use(invitationRouter.routes(), invitationRouter.allowedMethods());
  const uploadRouter = uploadRoutes(
    new UploadService({ s3: deps.s3, presigner: deps.presigner ?? deps.s3, bucket: config.s3.bucket }),
    createLimiter(redis, 'uploads', limits.uploads, prefix),
  );
  api.use(uploadRouter.routes(), uploadRouter.allowedMethods());
  api.all('/{*rest}', () => {
    throw notFound();
  });
  app.use(api.routes());

  const objects = objectRoutes({ em, s3: deps.s3, bucket: config.s3.bucket }).routes();
  const withUser = loadUser(em);
  app.use((ctx, next) =>
    ctx.path.startsWith('/objects/')
      ? RequestContext.create(em, () => withUser(ctx, () => objects(ctx as AppContext, next)))
      : next(),
  );

  if (deps.queues) {
    app.use(queueDashboard({ em, queues: deps.queues, allowedOrigins: config.allowedOrigins }));
  }
  app.use(
    serveWeb(
      config.webDist,
      {
        eventName: config.event.name,
        eventStart: config.event.start.toISOString(),
        eventEnd: config.event.end.toISOString(),
        place: config.event.place,
        applicationDeadline: config.event.applicationDeadline,
        publicUrl: config.publicUrl,
      },
      config.isProduction,
    ),
  );
  return app;
}

function helmetOptions(config: ApiConfig) {
  const s3Origin = new URL(config.s3.publicEndpoint).origin;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        // Browsers upload straight to S3 with presigned requests.
        connectSrc: ["'self'", s3Origin],
        mediaSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: config.isProduction,
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * Serves the built web client; client routes fall back to index.html, into which the event facts are
 * written as a JSON data block (no script runs, so the CSP stays strict).
 */
function serveWeb(root: string, siteConfig: SiteConfig, cacheIndex: boolean): Koa.Middleware {
  let index: Promise<string | null> | undefined;
  const loadIndex = () =>
    readFile(path.join(root, 'index.html'), 'utf8').then(
      (html) => html.replace('</head>', `${siteConfigScript(siteConfig)}</head>`),
      () => null,
    );
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/api/') || ctx.path.startsWith('/objects/')) return next();
    const file = ctx.path.replace(/^\/+/, '');
    if (file && file !== 'index.html' && path.extname(file)) {
      // koa-send picks the build's .br or .gz beside the file when the browser accepts it.
      ctx.vary('Accept-Encoding');
      const served = await send(ctx, file, {
        root,
        maxage: file.startsWith('assets/') ? 365 * 24 * 3600 * 1000 : 0,
        immutable: file.startsWith('assets/'),
      }).catch(() => undefined);
      if (served) return;
      return next();
    }
    // Outside production every request reads the file again, so a rebuilt client shows at once.
    const html = await (cacheIndex ? (index ??= loadIndex()) : loadIndex());
    if (html === null) {
      index = undefined;
      return next();
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    ctx.body = html;
  };
}

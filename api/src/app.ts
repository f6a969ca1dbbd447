import type { S3Client } from '@aws-sdk/client-s3';
import { bodyParser } from '@koa/bodyparser';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Redis } from 'ioredis';
import { awardRoutes } from './routes/award/award.routes.js';
import { juryRoutes } from './routes/jury/jury.routes.js';
import { paymentRoutes } from './routes/payments/payments.routes.js';
import { carPageWithPlaces, juryResultsOf, lookBackWithJury } from './core/jury/jury-results.js';
import Koa from 'koa';
import helmet from 'koa-helmet';
import session from 'koa-session';
import { editionPhaseAt, eventYear } from '@schlosstreffen/shared';
import type { ApiConfig, RateLimitRule } from './core/config.js';
import { loadUser, type AppState } from './http/context.js';
import { errorHandler, logFailure } from './http/error-handler.js';
import { requestLogging } from './http/request-log.js';
import { contentSecurityPolicy } from './http/content-security-policy.js';
import { compressPages, nonceForRenderedPages, serveWeb } from './http/serve-web.js';
import { dependencyClassifier } from './core/dependencies.js';
import { DomainError, notFound } from './core/errors.js';
import { AccountBackoff, createLimiter } from './http/rate-limit.js';
import { mutationGuard, rejectNulCharacters, requireHttps } from './http/security.js';
import { strictRouter } from './http/router.js';
import { HttpMetrics, observeRequests, UNMATCHED } from './http/metrics.js';
import { metricsRoutes } from './routes/metrics/metrics.routes.js';
import type { Queues } from './core/outbox/queues.js';
import { createSessionStore, SESSION_MAX_AGE_MS } from './http/session-store.js';
import { accountRoutes } from './routes/account/account.routes.js';
import { authRoutes } from './routes/auth/auth.routes.js';
import { secondFactorRoutes } from './routes/auth/second-factor.routes.js';
import { teamRoutes } from './routes/team/team.routes.js';
import { presentCurrentUser } from './routes/auth/user.presenter.js';
import { privacyRoutes } from './routes/privacy/privacy.routes.js';
import { AuthService } from './core/accounts/auth.service.js';
import { healthRoutes } from './routes/health/health.routes.js';
import { invitationRoutes } from './routes/invitations/invitation.routes.js';
import { waitlistRoutes } from './routes/waitlist/waitlist.routes.js';
import { WaitlistService } from './core/invitations/waitlist.service.js';
import { checkInRoutes } from './routes/check-in/check-in.routes.js';
import { visitorUpdateRoutes } from './routes/visitor-updates/visitor-update.routes.js';
import { VisitorUpdateService } from './core/visitor-updates/visitor-updates.js';
import { InvitationService } from './core/invitations/invitation.service.js';
import { mediaArchiveRoutes } from './routes/media/media-archive.js';
import { MediaService } from './core/media/media.service.js';
import { objectRoutes } from './routes/objects/object.routes.js';
import type { PublicInputs, PublicListVersion } from './core/public-list/public-inputs.js';
import type { PageCache } from './http/page-cache.js';
import { createPublicListReader, publicListReader } from './core/public-list/public-vehicle.read.js';
import { EditionEvents, type EventSource } from './core/editions/edition-events.js';
import { queueDashboard } from './routes/queues/queue-dashboard.js';
import { quartettRoutes } from './routes/quartett/quartett.routes.js';
import { QuartettService } from './core/quartett/quartett.service.js';
import { signRoutes } from './routes/signs/signs.routes.js';
import { SignService } from './core/signs/signs.service.js';
import { mediaRoutes } from './routes/media/media.routes.js';
import { UploadService } from './core/media/upload.service.js';
import { vehicleRoutes } from './routes/vehicles/vehicle.routes.js';
import { vehicleMailRoutes } from './routes/vehicles/vehicle-mails.routes.js';
import { editionRoutes } from './routes/editions/edition.routes.js';
import { VehicleService } from './core/vehicles/vehicle.service.js';
import { visitorRoutes } from './routes/visitors/visitor.routes.js';
import { auditRoutes } from './routes/audit/audit.routes.js';
import { reviewRoutes } from './routes/reviews/review.routes.js';
import { textRoutes } from './routes/texts/texts.routes.js';
import { mailTemplateRoutes } from './routes/texts/mail-template.routes.js';
import { PublicTextsReader } from './core/texts/public-texts.js';

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
  /**
   * The pages kept for visitors who are not signed in, and the announced changes of what they show
   * (every process's commits): a change renders the pages that show it again.
   */
  pages?: { cache: PageCache; inputs: PublicInputs };
  /** The deployment's Redis key prefix; rate-limit counters live under `<prefix>:rl:`. */
  redisPrefix: string;
  /** Where failures of requests go; the process's logger (`logFailure`) when unset. */
  log?: (error: unknown) => void;
  /**
   * The app's clock: the current edition, whether its applications are open, an online check-in's
   * time and which scans the gate window takes. The real time unless tests set it.
   */
  now?: () => Date;
  /** Where the current edition's event comes from; the editions in the database by default. */
  events?: EventSource;
  /** The request metrics, served at /metrics with METRICS_TOKEN; a registry of the app's own when unset. */
  metrics?: HttpMetrics;
  /** True once the process stops: its readiness (/healthz/ready) fails while it still serves. */
  stopping?: () => boolean;
}

export const SESSION_COOKIE = 'st.sid';

export function createApp(deps: AppDeps): Koa<AppState> {
  const { config, em, redis } = deps;
  // Behind n trusted proxies the client is the n-th X-Forwarded-For entry from the right: whatever a
  // client writes further left is ignored.
  const app = new Koa<AppState>({
    proxy: config.trustProxy > 0,
    maxIpsCount: config.trustProxy,
    keys: [config.sessionSecret],
  });
  app.silent = true;
  // First: the request id (X-Request-Id) and one log line per request, once it is answered.
  app.use(requestLogging());

  // Every request is timed, from here to the end of its answer, while metrics are on.
  const metrics = config.metricsToken ? (deps.metrics ?? new HttpMetrics()) : undefined;
  if (metrics) app.use(observeRequests(metrics));
  app.use(
    errorHandler(
      deps.log,
      dependencyClassifier({
        database: config.databaseUrl,
        // Through Sentinels the primary's port is not known beforehand: ioredis's words tell.
        redis: typeof config.redis === 'string' ? config.redis : undefined,
        storage: config.s3.endpoint,
      }),
    ),
  );
  app.use(nonceForRenderedPages);
  app.use(helmet(helmetOptions(config)));
  app.use(
    healthRoutes({ em, redis, s3: deps.s3, bucket: config.s3.bucket, stopping: deps.stopping }).routes(),
  );
  app.use(metricsRoutes({ token: config.metricsToken, metrics }).routes());
  // Cookies are Secure when the site is served over HTTPS, as PUBLIC_URL says.
  const secureCookies = new URL(config.publicUrl).protocol === 'https:';
  if (secureCookies) app.use(requireHttps(config.publicUrl));
  app.use(
    session(
      {
        key: SESSION_COOKIE,
        maxAge: SESSION_MAX_AGE_MS,
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        signed: true,
        renew: true,
        store: createSessionStore(em),
      },
      app,
    ),
  );

  const prefix = `${deps.redisPrefix}:rl`;
  const limits = config.rateLimits;
  const auth = new AuthService(em, {
    publicUrl: config.publicUrl,
    secret: config.sessionSecret,
    onOutbox: deps.onOutbox,
  });

  const api = strictRouter<AppState>({ prefix: '/api' });
  api.use(mutationGuard(config.allowedOrigins, ['/api/visitor-registrations/unsubscribe']));
  api.use(bodyParser({ enableTypes: ['json'], jsonLimit: '100kb', encoding: 'utf-8', jsonStrict: true }));
  api.use(rejectNulCharacters);
  api.use((_ctx, next) => RequestContext.create(em, next));
  // Staff sessions count as signed in only with their second factor while STAFF_SECOND_FACTOR is on.
  const sessions = { staffSecondFactor: config.staffSecondFactor };
  api.use(loadUser(em, sessions));
  const { s3, onOutbox } = deps;
  const now = deps.now ?? (() => new Date());
  api.use((ctx, next) => {
    ctx.state.now = now();
    return next();
  });
  const bucket = config.s3.bucket;
  const limiter = (name: string, rule: RateLimitRule) => createLimiter(redis, name, rule, prefix);
  // The current edition's event, read per request (and at most every few seconds from the database).
  const events = deps.events ?? new EditionEvents(em);
  const eventNow = () => events.at(now());
  const places = { events, publicUrl: config.publicUrl, secret: config.sessionSecret };
  // The current edition's public texts, as every page's site config carries them.
  const texts = new PublicTextsReader(em);
  // The current edition's public list, as the route and the fast path in front of the app keep it.
  const currentEditionId = async () => (await events.at(now())).edition.id;
  const publicList = deps.publicListChanges
    ? publicListReader(em, currentEditionId, deps.publicListChanges)
    : createPublicListReader(em, currentEditionId);
  // A change announced by any process: what this process keeps of it is read again first, then
  // the pages that show it are rendered again.
  deps.pages?.inputs.subscribe((inputs) => {
    if (inputs.includes('editions')) events.invalidate?.();
    if (inputs.includes('texts')) texts.invalidate();
    deps.pages?.cache.changed(inputs);
  });
  const routers = [
    authRoutes(
      auth,
      {
        loginPerIp: limiter('login-ip', limits.loginPerIp),
        loginPerAccount: new AccountBackoff(redis, `${prefix}:login-account`, limits.loginPerAccount),
        register: limiter('register', limits.register),
        forgotPassword: limiter('forgot', limits.forgotPassword),
        forgotPerAccount: limiter('forgot-account', limits.forgotPerAccount),
        addressMailsPerAccount: limiter('address-mails-account', limits.addressMailsPerAccount),
        addressMailsPerAddress: limiter('address-mails-address', limits.addressMailsPerAddress),
      },
      { em, staffSecondFactor: config.staffSecondFactor },
    ),
    secondFactorRoutes({
      em,
      sessionSecret: config.sessionSecret,
      // Codes are limited as passwords are: per address, and per account with the same backoff.
      perIp: limiter('second-factor-ip', limits.loginPerIp),
      perAccount: new AccountBackoff(redis, `${prefix}:second-factor-account`, limits.loginPerAccount),
    }),
    teamRoutes({ em, staffSecondFactor: config.staffSecondFactor }),
    accountRoutes({ em, auth }),
    visitorRoutes({
      em,
      config,
      onOutbox,
      events,
      now,
      signUpLimiter: limiter('visitor', limits.visitorSignUp),
    }),
    privacyRoutes({ em, config }),
    vehicleRoutes({
      em,
      vehicles: new VehicleService(em, { publicUrl: config.publicUrl, places, onOutbox, now }),
      maxYear: async () => eventYear((await eventNow()).start),
      publicListChanges: deps.publicListChanges,
      events,
      now,
    }),
    vehicleMailRoutes({ em, onOutbox }),
    mediaRoutes({
      em,
      media: new MediaService({ em, s3, bucket, onOutbox, now }),
      uploads: new UploadService({ em, s3, presigner: deps.presigner ?? s3, bucket }),
      uploadLimiter: limiter('uploads', limits.uploads),
      events,
    }),
    mediaArchiveRoutes({ em, s3, bucket, log: deps.log ?? logFailure, events }),
    quartettRoutes({ quartett: new QuartettService(em, { onOutbox }), events }),
    signRoutes({ signs: new SignService(em, { onOutbox }), events }),
    invitationRoutes(
      new InvitationService(em, {
        publicUrl: config.publicUrl,
        secret: config.sessionSecret,
        places,
        onOutbox,
        now,
      }),
    ),
    waitlistRoutes({ waitlist: new WaitlistService(em, { places, onOutbox, now }) }),
    editionRoutes({ em, events, publicUrl: config.publicUrl, secret: config.sessionSecret }),
    checkInRoutes({
      em,
      secret: config.sessionSecret,
      events,
      now,
    }),
    visitorUpdateRoutes({
      em,
      updates: new VisitorUpdateService(em, {
        publicUrl: config.publicUrl,
        secret: config.sessionSecret,
        onOutbox,
      }),
      events,
    }),
    auditRoutes({ em }),
    textRoutes({ em, events, reader: texts }),
    mailTemplateRoutes({ em, events, publicUrl: config.publicUrl, onOutbox }),
    reviewRoutes({
      em,
      events,
      vehicles: new VehicleService(em, { publicUrl: config.publicUrl, places, onOutbox, now }),
    }),
    awardRoutes({
      em,
      secret: config.sessionSecret,
      publicUrl: config.publicUrl,
      onOutbox,
      addressLimiter: limiter('award-addresses', limits.awardAddresses),
      addressSeenLimiter: limiter('award-address-seen', { points: 1, durationSeconds: 60 * 60 }),
      voteLimiter: limiter('award-votes', limits.awardVotes),
      secureCookies,
    }),
    juryRoutes({ em, events, publicUrl: config.publicUrl, secret: config.sessionSecret, onOutbox }),
    paymentRoutes({ em, events, publicUrl: config.publicUrl, onOutbox }),
  ];
  for (const router of routers) api.use(router.routes(), router.allowedMethods());
  api.all(UNMATCHED, '/{*rest}', () => {
    throw notFound();
  });
  app.use(api.routes());

  // Stored objects are checked against the database and the caller, like API answers.
  const objects = strictRouter<AppState>();
  objects.use('/objects', (_ctx, next) => RequestContext.create(em, next), loadUser(em, sessions));
  objects.use(objectRoutes({ em, s3: deps.s3, bucket: config.s3.bucket }).routes());
  app.use(objects.routes());

  if (deps.queues) {
    app.use(
      queueDashboard({
        em,
        queues: deps.queues,
        allowedOrigins: config.allowedOrigins,
        redis,
        staffSecondFactor: config.staffSecondFactor,
      }),
    );
  }
  // The API, stored objects and the queue dashboard in any other spelling name no route: 404, never
  // the web app's page.
  app.use(notInAnotherSpelling);
  app.use(compressPages);
  app.use(
    serveWeb({
      root: config.webDist,
      siteConfig: async () => {
        const at = now();
        const event = await events.at(at);
        return {
          eventName: event.name,
          eventStart: event.start.toISOString(),
          eventEnd: event.end.toISOString(),
          place: event.place,
          applicationDeadline: event.applicationDeadline,
          applicationsOpenAt:
            event.applicationsOpenAt === undefined
              ? undefined
              : (event.applicationsOpenAt?.toISOString() ?? null),
          // The current edition: no later one is current.
          phase: editionPhaseAt(
            {
              applicationsOpenAt: event.applicationsOpenAt,
              applicationDeadline: event.applicationDeadline,
              startsAt: event.start,
              endsAt: event.end,
              superseded: false,
            },
            at,
          ),
          now: at.toISOString(),
          lookBackYear: (await events.yearBefore?.(event.edition.year)) ?? null,
          texts: await texts.of(event.edition.id, event.applicationDeadline),
          publicUrl: config.publicUrl,
          operator: config.operator,
          retention: config.retention,
        };
      },
      cache: config.isProduction,
      em,
      staffSecondFactor: config.staffSecondFactor,
      presentUser: (user) => presentCurrentUser(em.fork(), user, now()),
      log: deps.log ?? logFailure,
      lookBack: (year) =>
        lookBackWithJury(em.fork(), year, now()).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === 'not_found') return null;
          throw error;
        }),
      carPage: (year, startNumber) =>
        carPageWithPlaces(em.fork(), year, startNumber, now()).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === 'not_found') return null;
          throw error;
        }),
      results: (year) => juryResultsOf(em.fork(), year),
      pages: deps.pages?.cache,
      listedVehicles: async () => (await publicList()).count,
      storedAssets: { s3: deps.s3, bucket },
    }),
  );
  return app;
}

function helmetOptions(config: ApiConfig) {
  return {
    contentSecurityPolicy: contentSecurityPolicy({
      s3Origin: new URL(config.s3.publicEndpoint).origin,
      upgradeInsecureRequests: config.isProduction,
    }),
    strictTransportSecurity: config.isProduction,
    crossOriginEmbedderPolicy: false,
  };
}

/** Paths under /api, /objects and /admin/queues, in any spelling: no router's route named them. */
const ROUTED_ONLY = /^\/(api|objects|admin\/queues)(\/|$)/i;

const notInAnotherSpelling: Koa.Middleware = (ctx, next) => {
  if (ROUTED_ONLY.test(ctx.path)) throw notFound();
  return next();
};

import type Router from '@koa/router';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { appRoutes } from '@bull-board/api/dist/routes.js';
import { KoaAdapter } from '@bull-board/koa';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@schlosstreffen/shared';
import type { Redis } from 'ioredis';
import type { Middleware } from 'koa';
import { notFound } from '../../core/errors.js';
import { audited, type AuditOptions } from '../../http/audited.js';
import { loadUser, type AppContext, type AppState } from '../../http/context.js';
import { strictRouter } from '../../http/router.js';
import { UNMATCHED } from '../../http/metrics.js';
import { mutationGuard } from '../../http/security.js';
import type { Queues } from '../../core/outbox/queues.js';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';
const API = `${QUEUE_DASHBOARD_PATH}/api`;

/** bull-board's page (one document; the browser routes inside it) under its base path. */
const PAGES = [
  '',
  '/',
  '/metrics-history',
  '/job-schedulers',
  '/queue/:queueName',
  '/queue/:queueName/:jobId',
];

/** Reads of bull-board's API that carry no job data: counts, workers, settings, statistics. */
const READS = [
  '/redis/stats',
  '/job-schedulers',
  '/queues/:queueName/metrics',
  '/queues/:queueName/default-job-options',
  '/queues/:queueName/workers',
  '/queues/:queueName/rate-limit',
  '/queues/:queueName/job-data-schema',
];

/**
 * Changes that bull-board offers and the dashboard refuses. Retry and clean of waiting, delayed or
 * active jobs, and promoting or emptying, answer 'finished jobs only': such a job came from the
 * outbox, whose row counts as published, and removing or promoting it would drop or hurry a side
 * effect (an invitation mail with its check-in code) unseen. Adding, editing, pausing and the like
 * answer 'read-only'.
 */
const FINISHED_ONLY = new RegExp(
  `^${API}/queues/[^/]+/((retry|clean|promote)/[^/]+|[^/]+/(retry|clean|promote)|empty|promote)$`,
);
const FINISHED = new Set(['failed', 'completed']);

/** A path segment as bull-board's router reads it (a malformed escape stays as it is). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const queueName = (ctx: AppContext) => ctx.params.queueName;
const jobOf = (ctx: AppContext) => ({ job: ctx.params.jobId });
const stateOf = (ctx: AppContext) => ({ state: ctx.params.queueStatus });
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** Reads that show job data (mail jobs carry addresses and first names): one audit row each. */
const JOB_LIST: AuditOptions = {
  // The queue list carries jobs for the queue the page has open (`activeQueue`) only.
  when: (ctx) => text(ctx.query.activeQueue) !== undefined,
  target: (ctx) => decodeSegment(text(ctx.query.activeQueue)!),
  details: (ctx) => ({ state: text(ctx.query.status) ?? 'latest', page: text(ctx.query.page) ?? '1' }),
};
const ONE_JOB: AuditOptions = { target: queueName, details: jobOf };

export type QueueDashboard = Middleware & {
  /** The dashboard's router, mounted beside the API's routers (tests read its routes). */
  mounted: Router<AppState>;
};

/**
 * bull-board under /admin/queues with every queue, for admins only: signed-out visitors are sent to
 * /login (and back afterwards), other roles get 403. Only the routes named here reach bull-board,
 * in their one spelling; anything else under /admin/queues answers 404 (a change bull-board offers
 * and the dashboard refuses, 403). Reads of job data are audited; retry and clean of failed and
 * completed jobs are the only changes, audited and passing the same Origin check as the API.
 */
export function queueDashboard(deps: {
  em: EntityManager;
  queues: Queues;
  allowedOrigins: string[];
  /** A connection to the queues' Redis: while it is not ready, the dashboard's API answers 503. */
  redis: Redis;
  /** STAFF_SECOND_FACTOR: an admin whose second factor is outstanding counts as signed out. */
  staffSecondFactor: boolean;
}): QueueDashboard {
  const adapter = new KoaAdapter();
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(deps.queues).map((queue) => new BullMQAdapter(queue)),
    serverAdapter: adapter,
    options: {
      uiConfig: {
        boardTitle: 'Schlosstreffen Jobs',
        locale: { lng: 'de-DE' },
        // Every read of job data is an audit row: an open queue page refreshes every 30 s, not every
        // 5 s (bull-board's default, 720 rows an hour per open page).
        pollingInterval: { forceInterval: 30, showSetting: false },
      },
    },
  });
  const board = adapter.registerPlugin();
  const originCheck = mutationGuard(deps.allowedOrigins);

  const adminsOnly: Middleware<AppState> = async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) {
      if (ctx.path.startsWith(`${API}/`)) {
        ctx.status = 401;
        ctx.body = { message: MESSAGES.unauthorized };
        return;
      }
      ctx.redirect(`/login?redirect=${encodeURIComponent(ctx.originalUrl)}`);
      return;
    }
    if (user.role !== 'admin') {
      ctx.status = 403;
      ctx.body = { message: MESSAGES.forbidden };
      return;
    }
    // bull-board's page carries inline styles; its scripts still come from this origin only.
    const csp = ctx.response.get('Content-Security-Policy');
    if (csp)
      ctx.set('Content-Security-Policy', csp.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"));
    await next();
  };

  // bull-board answers its API with a bare 500 while Redis is away: say what is missing instead.
  const queuesReady: Middleware<AppState> = async (ctx, next) => {
    if (deps.redis.status !== 'ready') {
      ctx.status = 503;
      ctx.set('Retry-After', '30');
      ctx.body = { message: MESSAGES.queuesUnavailable };
      return;
    }
    await next();
  };

  /** Hands the request to bull-board; only paths it serves get here. */
  const toBoard = (ctx: AppContext) =>
    board(ctx, () => {
      throw notFound();
    });

  /**
   * An audited request: its row is written first, in a transaction that commits once bull-board
   * answered 2xx. A failing write stops the request before it runs; a failed one leaves no row.
   */
  const throughBoard: Middleware<AppState> = async (koaCtx) => {
    const ctx = koaCtx as AppContext;
    const audit = ctx.state.audit;
    if (!audit) return toBoard(ctx);
    const failed = new Error('refused by bull-board');
    await deps.em
      .fork()
      .transactional(async (tx) => {
        audit.record(tx);
        await tx.flush();
        await toBoard(ctx);
        if (ctx.status < 200 || ctx.status >= 300) throw failed;
      })
      .catch((error: unknown) => {
        if (error !== failed) throw error;
      });
  };

  /** Retry and clean touch failed and completed jobs only: of such a state, or one job in one. */
  const finishedOnly =
    (finished: (ctx: AppContext) => Promise<boolean>): Middleware<AppState> =>
    async (koaCtx, next) => {
      const ctx = koaCtx as AppContext;
      if (!(await finished(ctx))) {
        ctx.status = 403;
        ctx.body = { message: MESSAGES.queueDashboardFinishedOnly };
        return;
      }
      await originCheck(ctx, next);
    };
  const finishedState = finishedOnly(async (ctx) => FINISHED.has(ctx.params.queueStatus!));
  // A queue or job that does not exist is left to bull-board, which answers 404.
  const finishedJob = finishedOnly(async (ctx) => {
    const name = ctx.params.queueName!;
    if (!Object.hasOwn(deps.queues, name)) return true;
    const state = await deps.queues[name as keyof Queues].getJobState(ctx.params.jobId!);
    return state === 'unknown' || FINISHED.has(state);
  });

  const router = strictRouter<AppState>();
  router.use(
    QUEUE_DASHBOARD_PATH,
    (_ctx, next) => RequestContext.create(deps.em, next),
    loadUser(deps.em, { staffSecondFactor: deps.staffSecondFactor }),
    adminsOnly,
  );
  router.use(API, queuesReady);

  for (const page of PAGES) router.get(`${QUEUE_DASHBOARD_PATH}${page}`, throughBoard);
  router.get(`${QUEUE_DASHBOARD_PATH}/static/{*file}`, throughBoard);
  for (const read of READS) router.get(`${API}${read}`, throughBoard);
  router.get(`${API}/queues`, audited('queues.jobs', JOB_LIST), throughBoard);
  router.get(`${API}/queues/:queueName/:jobId/logs`, audited('queues.job_logs', ONE_JOB), throughBoard);
  router.get(
    `${API}/queues/:queueName/:jobId/flow`,
    audited('queues.job', { target: queueName, details: (ctx) => ({ ...jobOf(ctx), flow: true }) }),
    throughBoard,
  );
  router.get(`${API}/queues/:queueName/:jobId`, audited('queues.job', ONE_JOB), throughBoard);

  const change = { target: queueName };
  router.put(
    `${API}/queues/:queueName/retry/:queueStatus`,
    finishedState,
    audited('queues.retry', { ...change, details: stateOf }),
    throughBoard,
  );
  router.put(
    `${API}/queues/:queueName/clean/:queueStatus`,
    finishedState,
    audited('queues.clean', { ...change, details: stateOf }),
    throughBoard,
  );
  router.put(
    `${API}/queues/:queueName/:jobId/retry`,
    finishedJob,
    audited('queues.retry', { ...change, details: jobOf }),
    throughBoard,
  );
  router.put(
    `${API}/queues/:queueName/:jobId/clean`,
    finishedJob,
    audited('queues.clean', { ...change, details: jobOf }),
    throughBoard,
  );

  // Every other change bull-board offers, in its own spelling: refused.
  for (const route of appRoutes.api) {
    for (const method of [route.method].flat()) {
      if (method === 'get') continue;
      for (const path of [route.route].flat()) {
        router.register(`${QUEUE_DASHBOARD_PATH}${path}`, [method.toUpperCase()], (ctx) => {
          ctx.status = 403;
          ctx.body = {
            message: FINISHED_ONLY.test(ctx.path)
              ? MESSAGES.queueDashboardFinishedOnly
              : MESSAGES.queueDashboardReadOnly,
          };
        });
      }
    }
  }
  // Anything else under the dashboard names nothing.
  router.all(UNMATCHED, `${QUEUE_DASHBOARD_PATH}/{*rest}`, () => {
    throw notFound();
  });

  // Not a router's own middleware: the API's route list (the permission matrix) names these routes
  // by hand, as bull-board's.
  const routes = router.routes() as Middleware;
  return Object.assign<Middleware, Pick<QueueDashboard, 'mounted'>>((ctx, next) => routes(ctx, next), {
    mounted: router,
  });
}

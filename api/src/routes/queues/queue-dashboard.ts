import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@schlosstreffen/shared';
import type { Redis } from 'ioredis';
import type { Middleware } from 'koa';
import { loadUser, type AppContext } from '../../http/context.js';
import { mutationGuard } from '../../http/security.js';
import type { Queues } from '../../core/outbox/queues.js';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

const inDashboard = (path: string) =>
  path === QUEUE_DASHBOARD_PATH || path.startsWith(`${QUEUE_DASHBOARD_PATH}/`);

/**
 * What an admin may change from the dashboard: retry and clean, of failed and completed jobs only
 * (one job, or all of such a state). A waiting, delayed or active job came from the outbox, whose
 * row counts as published: removing or promoting it would drop or hurry a side effect (an invitation
 * mail with its check-in code) unseen. Adding, editing, pausing, emptying and the like are refused.
 */
const CHANGE_ALL = new RegExp(`^${QUEUE_DASHBOARD_PATH}/api/queues/([^/]+)/(retry|clean)/([^/]+)$`);
const CHANGE_ONE = new RegExp(`^${QUEUE_DASHBOARD_PATH}/api/queues/([^/]+)/([^/]+)/(retry|clean)$`);
const CHANGE_ANY = new RegExp(
  `^${QUEUE_DASHBOARD_PATH}/api/queues/[^/]+/((retry|clean|promote)/[^/]+|[^/]+/(retry|clean|promote)|empty|promote)$`,
);
const FINISHED = new Set(['failed', 'completed']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a change (a PUT that CHANGE_ANY admits) touches failed or completed jobs only: a retry or
 * clean of all jobs of such a state, or of one job in such a state. A queue or job that does not
 * exist is left to bull-board, which answers 404.
 */
async function changesFinishedOnly(queues: Queues, path: string): Promise<boolean> {
  const all = CHANGE_ALL.exec(path);
  if (all) return FINISHED.has(all[3]!);
  const one = CHANGE_ONE.exec(path);
  if (!one) return false;
  const name = decodeSegment(one[1]!);
  if (!Object.hasOwn(queues, name)) return true;
  const queue = queues[name as keyof Queues];
  const state = await queue.getJobState(decodeSegment(one[2]!));
  return state === 'unknown' || FINISHED.has(state);
}

/** A path segment as bull-board's router reads it (a malformed escape stays as it is). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * bull-board under /admin/queues with every queue, for admins only: signed-out visitors are sent to
 * /login (and back afterwards), other roles get 403. Read-only but for retry and clean of failed
 * and completed jobs, which pass the same Origin check as the API.
 */
export function queueDashboard(deps: {
  em: EntityManager;
  queues: Queues;
  allowedOrigins: string[];
  /** A connection to the queues' Redis: while it is not ready, the dashboard's API answers 503. */
  redis: Redis;
  /** STAFF_SECOND_FACTOR: an admin whose second factor is outstanding counts as signed out. */
  staffSecondFactor: boolean;
}): Middleware {
  const adapter = new KoaAdapter();
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(deps.queues).map((queue) => new BullMQAdapter(queue)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'Schlosstreffen Jobs', locale: { lng: 'de-DE' } } },
  });
  const board = adapter.registerPlugin();
  const withUser = loadUser(deps.em, { staffSecondFactor: deps.staffSecondFactor });
  const originCheck = mutationGuard(deps.allowedOrigins);

  const guarded: Middleware = async (ctx, next) => {
    const user = (ctx as AppContext).state.user;
    if (!user) {
      if (ctx.path.startsWith(`${QUEUE_DASHBOARD_PATH}/api/`)) {
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
    const change = !SAFE_METHODS.has(ctx.method);
    if (change && (ctx.method !== 'PUT' || !CHANGE_ANY.test(ctx.path))) {
      ctx.status = 403;
      ctx.body = { message: MESSAGES.queueDashboardReadOnly };
      return;
    }
    // bull-board answers its API with a bare 500 while Redis is away: say what is missing instead.
    if (ctx.path.startsWith(`${QUEUE_DASHBOARD_PATH}/api/`) && deps.redis.status !== 'ready') {
      ctx.status = 503;
      ctx.set('Retry-After', '30');
      ctx.body = { message: MESSAGES.queuesUnavailable };
      return;
    }
    if (change && !(await changesFinishedOnly(deps.queues, ctx.path))) {
      ctx.status = 403;
      ctx.body = { message: MESSAGES.queueDashboardFinishedOnly };
      return;
    }
    await originCheck(ctx, () => board(ctx, next));
  };

  return (ctx, next) =>
    inDashboard(ctx.path)
      ? RequestContext.create(deps.em, () => withUser(ctx as AppContext, () => guarded(ctx, next)))
      : next();
}

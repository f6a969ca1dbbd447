import type { Middleware, ParameterizedContext } from 'koa';
import { Histogram, type Registry } from 'prom-client';
import { createMetricsRegistry, METRIC_PREFIX } from '../core/metrics/metrics.js';

/** The name of the catch-all routes (under /api and the queue dashboard), and the route of a 404 no route answered. */
export const UNMATCHED = 'unmatched';
/** What the built web client serves (pages, assets), which no router names. */
export const WEB = 'web';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Request durations from 1 ms (the public list from memory) to 10 s. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Label = 'method' | 'route' | 'status_class';

/**
 * The api's metrics: the process defaults and `schlosstreffen_http_request_duration_seconds` by
 * method, route (as the router defines it, e.g. `/api/vehicles/:id`; `unmatched` for a 404 no
 * route answered, `web` for the web client) and status class (2xx … 5xx).
 */
export class HttpMetrics {
  readonly registry: Registry;
  private readonly duration: Histogram<Label>;

  constructor(registry: Registry = createMetricsRegistry()) {
    this.registry = registry;
    this.duration = new Histogram<Label>({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Time from a request to the end of its answer, by method, route and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: BUCKETS,
      registers: [registry],
    });
  }

  /** One answered request that started at `startedAt` (process.hrtime.bigint()). */
  observe(method: string, route: string, status: number, startedAt: bigint): void {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    this.duration.observe(
      {
        method: METHODS.has(method) ? method : 'OTHER',
        route,
        status_class: `${Math.min(Math.max(Math.floor(status / 100), 1), 5)}xx`,
      },
      seconds,
    );
  }
}

interface MatchedLayer {
  path: string | RegExp;
  methods: string[];
  name?: string | null;
}

/**
 * The route that answered a request, as its router defines it: the first route layer (in the order
 * the routers run them) that matches the path and method, a route's middleware layers left out. A
 * catch-all answers `unmatched`; no route at all is the web client (`web`), or `unmatched` for a 404.
 */
export function routeOf(ctx: ParameterizedContext): string {
  const matched = (ctx as { matched?: MatchedLayer[] }).matched;
  for (const layer of matched ?? []) {
    if (layer.methods.length === 0 || !layer.methods.includes(ctx.method)) continue;
    return layer.name === UNMATCHED ? UNMATCHED : String(layer.path);
  }
  return ctx.status === 404 ? UNMATCHED : WEB;
}

/** Observes every request once its answer is sent (or the connection closed before). The first middleware. */
export function observeRequests(metrics: HttpMetrics): Middleware {
  return (ctx, next) => {
    const startedAt = process.hrtime.bigint();
    ctx.res.once('close', () => metrics.observe(ctx.method, routeOf(ctx), ctx.res.statusCode, startedAt));
    return next();
  };
}

import type Router from '@koa/router';
import { notFound, unauthenticated } from '../../core/errors.js';
import { bearerMatches } from '../../core/metrics/metrics.js';
import type { HttpMetrics } from '../../http/metrics.js';
import { strictRouter } from '../../http/router.js';

/**
 * Prometheus text at /metrics, only for `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise);
 * 404 while no token is configured, as for any path that names nothing.
 */
export function metricsRoutes(deps: { token: string | undefined; metrics: HttpMetrics | undefined }): Router {
  const router = strictRouter();
  router.get('/metrics', async (ctx) => {
    const { token, metrics } = deps;
    if (!token || !metrics) throw notFound();
    if (!bearerMatches(ctx.get('authorization'), token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw unauthenticated();
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  return router;
}

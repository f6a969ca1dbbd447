import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RETENTION_RULES, type RetentionRule } from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { CommonConfig } from '../../core/config.js';
import { lastRetentionRun } from '../../core/privacy/retention.js';
import { requireRole, type AppState } from '../../http/context.js';
import { strictRouter } from '../../http/router.js';

/** GET /admin/retention: the retention periods in force and what the last run removed (admins). */
export function privacyRoutes({ em, config }: { em: EntityManager; config: CommonConfig }): Router<AppState> {
  const router = strictRouter<AppState>();
  router.get('/admin/retention', requireRole('admin'), async (ctx) => {
    const last = await lastRetentionRun(em);
    ctx.body = {
      periods: (Object.keys(RETENTION_RULES) as RetentionRule[]).map((rule) => ({
        rule,
        label: RETENTION_RULES[rule].label,
        description: RETENTION_RULES[rule].description,
        days: config.retention[rule],
      })),
      lastRun: last
        ? { startedAt: last.startedAt.toISOString(), asOf: last.asOf.toISOString(), removed: last.removed }
        : null,
    } satisfies Api.RetentionOverview;
  });
  return router;
}

import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditQuerySchema, venueDayStart, type AuditPage } from '@schlosstreffen/shared';
import { listAudit, listAuditActors } from '../../core/audit/audit.js';
import { requireRole, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';

/**
 * GET /admin/audit (admins): the audit log, newest first, filtered by person, action and a range of
 * venue dates (both days included), page by page (`before` = the last page's `next`). Reading it is
 * itself audited (one row per page).
 */
export function auditRoutes({ em }: { em: EntityManager }): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/admin/audit', requireRole('admin'), async (ctx) => {
    const query = validate(AuditQuerySchema, ctx.query);
    const page = await listAudit(em, {
      actorId: query.person,
      action: query.action,
      from: query.from ? venueDayStart(query.from) : undefined,
      to: query.to ? venueDayStart(query.to, 1) : undefined,
      beforeSeq: query.before,
      limit: query.limit,
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...page, people: await listAuditActors(em) } satisfies AuditPage;
  });
  return router;
}

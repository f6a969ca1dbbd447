import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditQuerySchema, venueDayStart, type AuditPage } from '@schlosstreffen/shared';
import { listAudit, listAuditActors } from '../../core/audit/audit.js';
import { audited, auditOf } from '../../http/audited.js';
import { requireRole, type AppContext, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { strictRouter } from '../../http/router.js';

/** The filters a read of the log used (a person by account id). */
const filtersUsed = ({ query }: AppContext) =>
  Object.fromEntries(
    Object.entries({ person: 'person', action: 'action', from: 'since', to: 'until', before: 'page' })
      .filter(([key]) => typeof query[key] === 'string' && query[key] !== '')
      .map(([key, name]) => [name, query[key]]),
  );

/**
 * GET /admin/audit (admins): the audit log, newest first, filtered by person, action and a range of
 * venue dates (both days included), page by page (`before` = the last page's `next`). Reading it is
 * itself audited (one row per page).
 */
export function auditRoutes({ em }: { em: EntityManager }): Router<AppState> {
  const router = strictRouter<AppState>();
  router.get(
    '/admin/audit',
    requireRole('admin'),
    audited('audit.read', { details: filtersUsed }),
    async (ctx) => {
      const query = validate(AuditQuerySchema, ctx.query);
      const page = await listAudit(em, {
        actorId: query.person,
        action: query.action,
        from: query.from ? venueDayStart(query.from) : undefined,
        to: query.to ? venueDayStart(query.to, 1) : undefined,
        beforeSeq: query.before,
        limit: query.limit,
      });
      const people = await listAuditActors(em);
      await auditOf(ctx).write(em, { details: { rows: page.entries.length } });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { ...page, people } satisfies AuditPage;
    },
  );
  return router;
}

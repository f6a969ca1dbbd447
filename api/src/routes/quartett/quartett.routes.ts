import type Router from '@koa/router';
import type { EventSource } from '../../core/editions/edition-events.js';
import { editionOfRequest } from '../../http/edition.js';
import { QUARTETT_MESSAGES, QuartettSetCreateSchema } from '@schlosstreffen/shared';
import { currentUser, requireRole, type AppState } from '../../http/context.js';
import { uuidParam, validate } from '../../http/validate.js';
import { presentQuartettSet } from './quartett.presenter.js';
import type { QuartettService } from '../../core/quartett/quartett.service.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear, param } from '../../http/audited.js';

/** /admin/quartett-sets: the quartett print exports, for admins only. */
export function quartettRoutes({
  quartett,
  events,
}: {
  quartett: QuartettService;
  /** The sets of one edition at a time (`?edition=`, the current one by default). */
  events: EventSource;
}): Router<AppState> {
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');
  const setId = (value: string | undefined) => uuidParam(value, QUARTETT_MESSAGES.setNotFound);

  router.get('/admin/quartett-sets', admin, async (ctx) => {
    ctx.body = (await quartett.list((await editionOfRequest(ctx, events)).edition.id)).map(
      presentQuartettSet,
    );
  });

  router.post(
    '/admin/quartett-sets',
    admin,
    audited('quartett.export', { target: editionYear }),
    async (ctx) => {
      const input = validate(QuartettSetCreateSchema, ctx.request.body);
      const { edition } = await editionOfRequest(ctx, events);
      const set = await quartett.create(currentUser(ctx), input, edition.id, auditOf(ctx));
      ctx.status = 201;
      ctx.body = presentQuartettSet(set);
    },
  );

  router.get('/admin/quartett-sets/:id', admin, async (ctx) => {
    ctx.body = presentQuartettSet(await quartett.get(setId(ctx.params.id)));
  });

  router.post(
    '/admin/quartett-sets/:id/release',
    admin,
    audited('quartett.release', { target: param('id') }),
    async (ctx) => {
      ctx.body = presentQuartettSet(await quartett.release(setId(ctx.params.id), auditOf(ctx)));
    },
  );

  return router;
}

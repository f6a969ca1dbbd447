import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES, VisitorRegistrationSchema } from '@schlosstreffen/shared';
import type { ApiConfig } from '../../config.js';
import { requireRole, type AppContext, type AppState } from '../../http/context.js';
import { badRequest } from '../../http/errors.js';
import { rateLimit, type Limiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import { VisitorService, venueDate, visitorsToCsv, type VisitorState } from './visitor.service.js';

export interface VisitorRouteDeps {
  em: EntityManager;
  config: ApiConfig;
  onOutbox?: () => void;
  signUpLimiter: Limiter;
}

/** Where a followed mail link lands on the visitor registration page. */
const LANDING: Record<VisitorState, string> = {
  confirmed: 'bestaetigt=1',
  unsubscribed: 'abgemeldet=1',
  pending: 'link=ungueltig',
};

/** The token of a mail link: `?token=` on links, `{ token }` in a JSON body. */
function tokenOf(ctx: AppContext): unknown {
  const fromBody = (ctx.request.body as { token?: unknown } | undefined)?.token;
  return fromBody ?? ctx.query.token;
}

export function visitorRoutes(deps: VisitorRouteDeps): Router<AppState> {
  const { config } = deps;
  const visitors = new VisitorService(deps.em, {
    publicUrl: config.publicUrl,
    secret: config.sessionSecret,
    onOutbox: deps.onOutbox,
  });
  const router = new Router<AppState>();

  const land = (ctx: AppContext, state: VisitorState | null) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${config.publicUrl}/visitor-registration?${LANDING[state ?? 'pending']}`);
  };

  router.post(
    '/visitor-registrations',
    rateLimit(deps.signUpLimiter, (ctx) => ctx.ip),
    async (ctx) => {
      const input = validate(VisitorRegistrationSchema, ctx.request.body);
      await visitors.signUp(input);
      ctx.status = 201;
      ctx.body = { message: MESSAGES.visitorRegistered, description: MESSAGES.visitorConfirmPending };
    },
  );

  router.get('/visitor-registrations/confirm', async (ctx) => {
    land(ctx, await visitors.confirm(ctx.query.token));
  });

  router.get('/visitor-registrations/unsubscribe', async (ctx) => {
    land(ctx, (await visitors.unsubscribe(ctx.query.token)) ? 'unsubscribed' : null);
  });

  // RFC 8058 one-click unsubscribe, and the web page's button.
  router.post('/visitor-registrations/unsubscribe', async (ctx) => {
    if (!(await visitors.unsubscribe(tokenOf(ctx)))) throw badRequest(MESSAGES.visitorLinkInvalid);
    ctx.body = { message: MESSAGES.visitorUnsubscribed };
  });

  router.get('/admin/visitors', requireRole('admin'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await visitors.list();
  });

  router.get('/admin/visitors.csv', requireRole('admin'), async (ctx) => {
    const { visitors: rows } = await visitors.list();
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="besucher-${venueDate(new Date())}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = visitorsToCsv(rows);
  });

  return router;
}

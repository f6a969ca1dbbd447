import type Router from '@koa/router';
import QRCode from 'qrcode';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  MESSAGES,
  PRIVACY_MESSAGES,
  venueDate,
  VISITOR_NEXT_EDITION_CONSENTED,
  VisitorRegistrationSchema,
  VISITOR_TICKET_MESSAGES,
} from '@schlosstreffen/shared';
import type { ApiConfig } from '../../core/config.js';
import { requireRole, type AppContext, type AppState } from '../../http/context.js';
import { invalid, notFound } from '../../core/errors.js';
import { rateLimit, type Limiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import type { ServerMessage, VisitorTicketView } from '@schlosstreffen/shared/api';
import { ticketLinksOf, VisitorService } from '../../core/visitors/visitor.service.js';
import { returnTicket, ticketOfSecret } from '../../core/visitors/tickets.js';
import type { EventSource } from '../../core/editions/edition-events.js';
import { editionOfRequest } from '../../http/edition.js';
import { presentVisitorList, visitorsToCsv } from './visitor.presenter.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear } from '../../http/audited.js';

export interface VisitorRouteDeps {
  em: EntityManager;
  config: ApiConfig;
  onOutbox?: () => void;
  signUpLimiter: Limiter;
  events: EventSource;
  /** The app's clock: which edition a sign-up is for. */
  now?: () => Date;
}

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
    events: deps.events,
    now: deps.now,
    onOutbox: deps.onOutbox,
  });
  const router = strictRouter<AppState>();

  // Links of mails sent before the pages existed lead there too: a GET changes nothing.
  const toPage = (page: string) => (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    ctx.redirect(`${config.publicUrl}/besucher/${page}?token=${encodeURIComponent(token)}`);
  };

  router.post(
    '/visitor-registrations',
    rateLimit(deps.signUpLimiter, (ctx) => ctx.ip),
    async (ctx) => {
      const input = validate(VisitorRegistrationSchema, ctx.request.body);
      await visitors.signUp(input);
      ctx.status = 201;
      ctx.body = {
        message: MESSAGES.visitorRegistered,
        description: MESSAGES.visitorConfirmPending,
      } satisfies ServerMessage;
    },
  );

  // The ticket page and 'Ticket zurückgeben': the secret in the link is the only key.
  router.get('/visitor-tickets/:secret', async (ctx) => {
    const found = await ticketOfSecret(deps.em.fork(), ctx.params.secret ?? '');
    if (!found || found.ticket.state === 'waiting') throw notFound(VISITOR_TICKET_MESSAGES.ticketUnknown);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = {
      state: found.ticket.state === 'issued' ? 'issued' : 'returned',
      firstName: found.registration.firstName,
      lastName: found.registration.lastName,
      edition: {
        name: found.edition.name,
        year: found.edition.year,
        startsAt: found.edition.startsAt.toISOString(),
        endsAt: found.edition.endsAt.toISOString(),
        place: found.edition.place,
      },
      code: ctx.params.secret!,
      qrSvg: await QRCode.toString(ctx.params.secret!, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    } satisfies VisitorTicketView;
  });

  router.post('/visitor-tickets/:secret/return', async (ctx) => {
    await returnTicket(
      deps.em,
      ctx.params.secret ?? '',
      deps.now?.() ?? new Date(),
      ticketLinksOf(config.publicUrl, config.sessionSecret),
    );
    deps.onOutbox?.();
    ctx.body = { message: VISITOR_TICKET_MESSAGES.ticketReturned } satisfies ServerMessage;
  });

  router.get('/visitor-registrations/confirm', toPage('bestaetigen'));
  router.get('/visitor-registrations/unsubscribe', toPage('abmelden'));

  router.post('/visitor-registrations/confirm', async (ctx) => {
    const outcome = await visitors.confirm(tokenOf(ctx));
    if (outcome?.state !== 'confirmed') throw invalid(MESSAGES.visitorLinkInvalid);
    ctx.body = {
      message: outcome.tickets ? VISITOR_TICKET_MESSAGES.confirmed : PRIVACY_MESSAGES.visitorConfirmed,
    } satisfies ServerMessage;
  });

  // The link mailed when a repeated sign-up asked for the next edition's consent: only it adds it.
  router.post('/visitor-registrations/next-edition', async (ctx) => {
    if (!(await visitors.consentToNextEdition(tokenOf(ctx)))) throw invalid(MESSAGES.visitorLinkInvalid);
    ctx.body = { message: VISITOR_NEXT_EDITION_CONSENTED } satisfies ServerMessage;
  });

  // RFC 8058 one-click unsubscribe, and the web page's button.
  router.post('/visitor-registrations/unsubscribe', async (ctx) => {
    if (!(await visitors.unsubscribe(tokenOf(ctx)))) throw invalid(MESSAGES.visitorLinkInvalid);
    ctx.body = { message: MESSAGES.visitorUnsubscribed } satisfies ServerMessage;
  });

  router.get(
    '/admin/visitors',
    requireRole('admin'),
    audited('visitors.list', { target: editionYear }),
    async (ctx) => {
      const list = presentVisitorList(
        await visitors.list((await editionOfRequest(ctx, deps.events)).edition.id),
      );
      await auditOf(ctx).write(deps.em, { details: { rows: list.counts.total } });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = list;
    },
  );

  router.get(
    '/admin/visitors.csv',
    requireRole('admin'),
    audited('visitors.export_csv', { target: editionYear }),
    async (ctx) => {
      const { visitors: rows } = presentVisitorList(
        await visitors.list((await editionOfRequest(ctx, deps.events)).edition.id),
      );
      await auditOf(ctx).write(deps.em);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', `attachment; filename="besucher-${venueDate(new Date())}.csv"`);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = visitorsToCsv(rows);
    },
  );

  return router;
}

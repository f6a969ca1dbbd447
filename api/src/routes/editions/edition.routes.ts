import type Router from '@koa/router';
import { carPageWithPlaces, lookBackWithJury } from '../../core/jury/jury-results.js';
import {
  CAR_PAGE_MESSAGES,
  EDITION_MESSAGES,
  EditionCreateSchema,
  EditionMomentSchema,
  EditionUpdateSchema,
} from '@schlosstreffen/shared';
import type { AdminEdition, AdminEditionList, CarPage, LookBack } from '@schlosstreffen/shared/api';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSource } from '../../core/editions/edition-events.js';
import {
  createEdition,
  currentEdition,
  listEditions,
  makeCurrent,
  openApplications,
  phasesOf,
  updateEdition,
} from '../../core/editions/editions.js';
import { applicationsPerEdition } from '../../core/editions/editions.queries.js';
import { invalid } from '../../core/errors.js';
import type { Edition } from '../../core/model/edition.entity.js';
import { requestNow, requireRole, type AppContext, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, param } from '../../http/audited.js';
import { PUBLIC_LIST_CACHE_CONTROL } from '../vehicles/public-list.js';
import { enqueueShareImagesOf } from '../../core/public-list/share-image.js';
import { openMissingPayments } from '../../core/payments/payments.js';
import { visitorCapacityChanged } from '../../core/visitors/tickets.js';
import { ticketLinksOf } from '../../core/visitors/visitor.service.js';
import { ticketCountsOf } from '../../core/visitors/tickets.queries.js';

export interface EditionRouteDeps {
  em: EntityManager;
  /** The links of visitor ticket mails (a raised capacity mails those who move up). */
  publicUrl: string;
  secret: string;
  /** Read again after a change, so this process sees it at once. */
  events: EventSource;
}

/** The year in the path: four digits, else the edition is unknown. */
function yearOf(ctx: AppContext): number {
  const raw = ctx.params.year ?? '';
  if (!/^\d{4}$/.test(raw)) throw invalid(EDITION_MESSAGES.yearParam);
  return Number(raw);
}

/** The request's JSON body (validated by the route before its audit row is recorded). */
const bodyOf = (ctx: AppContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
/** Which fields an admin set (the values are settings, but the names suffice). */
const fieldsSet = (ctx: AppContext) => ({ fields: Object.keys(bodyOf(ctx)).sort() });
/** The moment an action was set for (null: now). */
const momentSet = (ctx: AppContext) => {
  const { at } = bodyOf(ctx);
  return { at: typeof at === 'string' ? at : null };
};

/** `at` of an action: the given moment, or now. */
const momentOf = (ctx: AppContext, at: string | undefined) =>
  at === undefined ? requestNow(ctx) : new Date(at);

/**
 * 'Ausgaben': every edition with its phase (staff: the admin area's edition switch lists them); the
 * next one created from the last, applications opened and the public site's edition switched, each
 * now or at a set moment (admins only).
 */
export function editionRoutes({ em, events, publicUrl, secret }: EditionRouteDeps): Router<AppState> {
  const ticketLinks = ticketLinksOf(publicUrl, secret);
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');

  const list = async (ctx: AppContext): Promise<AdminEditionList> => {
    const now = requestNow(ctx);
    const editions = await listEditions(em);
    const phases = await phasesOf(em, editions, now);
    const current = await currentEdition(em, now);
    const applications = await applicationsPerEdition(em);
    const tickets = new Map(
      (
        await ticketCountsOf(
          em,
          editions.map((edition) => edition.id),
        )
      ).map((row) => [row.edition_id, row]),
    );
    return {
      editions: editions.map((edition): AdminEdition => ({
        ...present(edition),
        visitorTickets: edition.visitorTickets
          ? {
              capacity: edition.visitorTickets.capacity,
              exitScanning: edition.visitorTickets.exitScanning ?? false,
              issued: tickets.get(edition.id)?.issued ?? 0,
              returned: tickets.get(edition.id)?.returned ?? 0,
              waiting: tickets.get(edition.id)?.waiting ?? 0,
            }
          : null,
        phase: phases.get(edition.id)!,
        current: edition.id === current.id,
        applications: applications.get(edition.id) ?? 0,
      })),
    };
  };

  // 'Rückblick': public, for editions that have ended.
  router.get('/editions/:year/look-back', async (ctx) => {
    const year = yearOf(ctx);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = (await lookBackWithJury(em, year, requestNow(ctx))) satisfies LookBack;
  });

  // A car's public page: public, for the confirmed car holding the start number at that meeting.
  router.get('/editions/:year/vehicles/:startNumber', async (ctx) => {
    const year = yearOf(ctx);
    const raw = ctx.params.startNumber ?? '';
    if (!/^\d{1,4}$/.test(raw)) throw invalid(CAR_PAGE_MESSAGES.invalidNumber);
    const page = (await carPageWithPlaces(em, year, Number(raw), requestNow(ctx))) satisfies CarPage;
    // It carries the voting's state and follows a released number at once: revalidated on every use,
    // and a number no car holds is not kept at all.
    ctx.set('Cache-Control', PUBLIC_LIST_CACHE_CONTROL);
    ctx.body = page;
  });

  router.get('/admin/editions', requireRole('admin', 'reviewer'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await list(ctx);
  });

  router.post(
    '/admin/editions',
    admin,
    audited('editions.create', { target: (ctx) => bodyOf(ctx).year, details: fieldsSet }),
    async (ctx) => {
      const input = validate(EditionCreateSchema, ctx.request.body);
      const edition = await createEdition(
        em.fork(),
        {
          year: input.year,
          from: input.from,
          start: input.start === undefined ? undefined : new Date(input.start),
          end: input.end === undefined ? undefined : new Date(input.end),
          deadline: input.deadline,
        },
        auditOf(ctx),
      );
      events.invalidate?.();
      ctx.status = 201;
      ctx.body = { message: EDITION_MESSAGES.created(edition.name), ...(await list(ctx)) };
    },
  );

  router.patch(
    '/admin/editions/:year',
    admin,
    audited('editions.update', { target: param('year'), details: fieldsSet }),
    async (ctx) => {
      const year = yearOf(ctx);
      const input = validate(EditionUpdateSchema, ctx.request.body);
      const edition = await updateEdition(
        em.fork(),
        year,
        {
          ...input,
          start: input.start === undefined ? undefined : new Date(input.start),
          end: input.end === undefined ? undefined : new Date(input.end),
        },
        requestNow(ctx),
        auditOf(ctx),
        {
          // The link previews of its listed cars name the meeting: they are drawn anew.
          onRenamed: (tx, editionId) => enqueueShareImagesOf(tx, [editionId]),
          // A fee set after invitations went out: the places held get their payment (and the cars
          // take part once paid, like the later ones).
          onFeeChanged: (tx, changed) => openMissingPayments(tx, changed, requestNow(ctx)),
          // Never fewer places than tickets out; a raised capacity moves the waiting list up at once.
          onVisitorTicketsChanged: (tx, changed) =>
            visitorCapacityChanged(tx, changed, requestNow(ctx), ticketLinks),
        },
      );
      events.invalidate?.();
      ctx.body = { message: EDITION_MESSAGES.updated(edition.name), ...(await list(ctx)) };
    },
  );

  const moment = { target: param('year'), details: momentSet };

  router.post('/admin/editions/:year/open', admin, audited('editions.open', moment), async (ctx) => {
    const year = yearOf(ctx);
    const { at } = validate(EditionMomentSchema, ctx.request.body);
    const edition = await openApplications(em.fork(), year, momentOf(ctx, at), auditOf(ctx));
    events.invalidate?.();
    ctx.body = { message: EDITION_MESSAGES.opened(edition.name), ...(await list(ctx)) };
  });

  router.post('/admin/editions/:year/current', admin, audited('editions.current', moment), async (ctx) => {
    const year = yearOf(ctx);
    const { at } = validate(EditionMomentSchema, ctx.request.body);
    const edition = await makeCurrent(em.fork(), year, momentOf(ctx, at), auditOf(ctx));
    events.invalidate?.();
    ctx.body = { message: EDITION_MESSAGES.madeCurrent(edition.name), ...(await list(ctx)) };
  });

  return router;
}

function present(
  edition: Edition,
): Omit<AdminEdition, 'phase' | 'current' | 'applications' | 'visitorTickets'> {
  return {
    year: edition.year,
    name: edition.name,
    startsAt: edition.startsAt.toISOString(),
    endsAt: edition.endsAt.toISOString(),
    place: edition.place,
    applicationsOpenAt: edition.applicationsOpenAt?.toISOString() ?? null,
    applicationDeadline: edition.applicationDeadline,
    parkingZones: edition.parkingZones,
    confirmDays: edition.confirmDays,
    cutoffDays: edition.cutoffDays,
    reminderDays: edition.reminderDays,
    currentFrom: edition.currentFrom?.toISOString() ?? null,
    fee: edition.fee ?? null,
  };
}

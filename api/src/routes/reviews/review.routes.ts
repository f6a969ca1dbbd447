import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ReassignSchema,
  ReviewConflictSchema,
  ReviewSettingsSchema,
  ReviewSubmissionSchema,
} from '@schlosstreffen/shared';
import type {
  MyReviews,
  ReviewConflictList,
  ReviewLoad,
  ReviewSettings,
  VehicleReview,
} from '@schlosstreffen/shared/api';
import type { EventSource } from '../../core/editions/edition-events.js';
import {
  declareConflict,
  listConflicts,
  myReviews,
  reassignReview,
  reviewLoad,
  reviewSettings,
  submitReview,
  updateReviewSettings,
  vehicleReview,
  withdrawConflict,
} from '../../core/reviews/reviews.js';
import { currentUser, requestNow, requireRole, type AppState } from '../../http/context.js';
import { editionOfRequest } from '../../http/edition.js';
import { uuidParam, validate } from '../../http/validate.js';
import { vehicleId } from '../vehicles/vehicle.routes.js';
import { presentVehicle } from '../vehicles/vehicle.presenter.js';
import type { VehicleService } from '../../core/vehicles/vehicle.service.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear, param, type AuditOptions } from '../../http/audited.js';

/** The review settings in the audit log: the number of reviewers and of categories. */
const SETTINGS_AUDIT: AuditOptions = {
  target: editionYear,
  details: ({ request }) => {
    const body = (request.body ?? {}) as { reviewersPerApplication?: unknown; categories?: unknown };
    return {
      reviewersPerApplication: body.reviewersPerApplication,
      categories: Array.isArray(body.categories) ? body.categories.length : null,
    };
  },
};

/** A moved review in the audit log: from whom to whom (account ids). */
const move = (body: unknown) => {
  const { from, to } = (body ?? {}) as { from?: unknown; to?: unknown };
  return { from, to };
};

export interface ReviewRouteDeps {
  em: EntityManager;
  events: EventSource;
  vehicles: VehicleService;
}

/**
 * Reviewing at scale: a reviewer's own reviews and biases, one application's reviews and the
 * review itself; admins set the edition's categories and reviewers per application, see the load
 * per reviewer and move an open review.
 */
export function reviewRoutes({ em, events, vehicles }: ReviewRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  const staff = requireRole('admin', 'reviewer');
  const admin = requireRole('admin');

  router.get('/admin/reviews/mine', staff, async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await myReviews(em, currentUser(ctx), edition.id)) satisfies MyReviews;
  });

  router.get('/admin/reviews/settings', staff, async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.body = (await reviewSettings(em, edition.id)) satisfies ReviewSettings;
  });

  router.put('/admin/reviews/settings', admin, audited('review.settings', SETTINGS_AUDIT), async (ctx) => {
    const input = validate(ReviewSettingsSchema, ctx.request.body);
    const { edition } = await editionOfRequest(ctx, events);
    ctx.body = (await updateReviewSettings(
      em,
      edition.id,
      input,
      requestNow(ctx),
      auditOf(ctx),
    )) satisfies ReviewSettings;
  });

  router.get('/admin/reviews/load', admin, async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await reviewLoad(em, edition.id)) satisfies ReviewLoad;
  });

  router.get('/admin/reviews/conflicts', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listConflicts(em, currentUser(ctx))) satisfies ReviewConflictList;
  });

  // A reviewer's own conflict of interest changes who reviews what; the person it names (an
  // address) stays out of the log.
  router.post('/admin/reviews/conflicts', staff, audited('review.conflict_declare'), async (ctx) => {
    const { email } = validate(ReviewConflictSchema, ctx.request.body);
    await declareConflict(em, currentUser(ctx), email, requestNow(ctx), auditOf(ctx));
    ctx.status = 201;
    ctx.body = (await listConflicts(em, currentUser(ctx))) satisfies ReviewConflictList;
  });

  router.delete(
    '/admin/reviews/conflicts/:id',
    staff,
    audited('review.conflict_withdraw', { target: param('id') }),
    async (ctx) => {
      await withdrawConflict(em, currentUser(ctx), uuidParam(ctx.params.id), requestNow(ctx), auditOf(ctx));
      ctx.body = (await listConflicts(em, currentUser(ctx))) satisfies ReviewConflictList;
    },
  );

  // One application as the dashboard lists it (with its owner): 'Meine Prüfungen' opens it.
  router.get('/admin/vehicles/:id', staff, async (ctx) => {
    const vehicle = await vehicles.getForStaff(currentUser(ctx), vehicleId(ctx));
    await em.populate(vehicle, ['user']);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentVehicle(vehicle, {
      withOwner: true,
      invitations: await vehicles.invitationsOf([vehicle]),
    });
  });

  router.get('/admin/vehicles/:id/review', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await vehicleReview(em, currentUser(ctx), vehicleId(ctx))) satisfies VehicleReview;
  });

  router.post('/admin/vehicles/:id/review', staff, async (ctx) => {
    const input = validate(ReviewSubmissionSchema, ctx.request.body);
    await submitReview(em, currentUser(ctx), vehicleId(ctx), input, requestNow(ctx));
    ctx.body = (await vehicleReview(em, currentUser(ctx), vehicleId(ctx))) satisfies VehicleReview;
  });

  router.post(
    '/admin/vehicles/:id/assignments',
    admin,
    audited('review.assignment', { target: param('id'), details: ({ request }) => move(request.body) }),
    async (ctx) => {
      const input = validate(ReassignSchema, ctx.request.body);
      await reassignReview(em, currentUser(ctx), vehicleId(ctx), input, requestNow(ctx), auditOf(ctx));
      ctx.body = (await vehicleReview(em, currentUser(ctx), vehicleId(ctx))) satisfies VehicleReview;
    },
  );

  return router;
}

import type Router from '@koa/router';
import {
  EditionQuerySchema,
  PLACES_MESSAGES,
  personLabel,
  vehicleDisplayName,
  WaitlistInviteSchema,
  WaitlistSettingsSchema,
} from '@schlosstreffen/shared';
import type { WaitlistInviteResult, WaitlistOverview } from '@schlosstreffen/shared/api';
import type { WaitlistService } from '../../core/invitations/waitlist.service.js';
import { currentUser, requireRole, type AppContext, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import type { User } from '../../core/model/user.entity.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf } from '../../http/audited.js';

export interface WaitlistRouteDeps {
  waitlist: WaitlistService;
}

/**
 * Moving up from the waitlist: reviewers and admins see the rule, free places and the next
 * candidates ('Nachrücker') and invite one with a click; only admins switch automatic moving up.
 */
export function waitlistRoutes({ waitlist }: WaitlistRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();

  /** The edition of `?edition=` (the current one when absent). */
  const yearOf = (ctx: AppContext) => validate(EditionQuerySchema, ctx.query).edition;

  const overview = async (viewer: User, year?: number): Promise<WaitlistOverview> => {
    const view = await waitlist.overview(viewer, year);
    return {
      autoMoveUp: view.autoMoveUp,
      rule: PLACES_MESSAGES.rule,
      cutoff: view.cutoff.toISOString(),
      pastCutoff: view.pastCutoff,
      free: view.free,
      pending: view.pending,
      zones: view.zones,
      candidates: view.candidates.map(({ rank, score, scoreHidden, conflict, submittedAt, vehicle }) => ({
        rank,
        score,
        scoreHidden,
        conflict,
        submittedAt: submittedAt.toISOString(),
        vehicle: {
          id: vehicle.id,
          title: vehicleDisplayName(vehicle),
          brand: vehicle.brand,
          model: vehicle.model,
          ownerName: personLabel(vehicle.user),
        },
      })),
    };
  };

  router.get('/admin/waitlist', requireRole('admin', 'reviewer'), async (ctx) => {
    ctx.body = await overview(currentUser(ctx), yearOf(ctx));
  });

  router.put('/admin/waitlist/settings', requireRole('admin'), audited('waitlist.settings'), async (ctx) => {
    const { autoMoveUp } = validate(WaitlistSettingsSchema, ctx.request.body);
    await waitlist.setAutoMoveUp(autoMoveUp, auditOf(ctx));
    ctx.body = await overview(currentUser(ctx));
  });

  router.post('/admin/waitlist/invite', requireRole('admin', 'reviewer'), async (ctx) => {
    const { vehicleId } = validate(WaitlistInviteSchema, ctx.request.body);
    const invited = await waitlist.invite(currentUser(ctx), vehicleId, yearOf(ctx));
    ctx.status = 201;
    ctx.body = invited satisfies WaitlistInviteResult;
  });

  return router;
}

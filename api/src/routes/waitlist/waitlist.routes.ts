import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PLACES_MESSAGES,
  personLabel,
  vehicleDisplayName,
  WaitlistInviteSchema,
  WaitlistSettingsSchema,
} from '@schlosstreffen/shared';
import type { WaitlistInviteResult, WaitlistOverview } from '@schlosstreffen/shared/api';
import { placesOverview } from '../../core/invitations/places-overview.js';
import type { PlacesOptions } from '../../core/invitations/places.js';
import { advanceWaitlist, inviteFromWaitlist } from '../../core/invitations/waitlist.js';
import { setAutoMoveUp } from '../../core/settings/settings.js';
import { currentUser, requireRole, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';

export interface WaitlistRouteDeps {
  em: EntityManager;
  places: PlacesOptions;
  onOutbox?: () => void;
}

/**
 * Moving up from the waitlist: reviewers and admins see the rule, free places and the next
 * candidates ('Nachrücker') and invite one with a click; only admins switch automatic moving up.
 */
export function waitlistRoutes({ em, places, onOutbox }: WaitlistRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  const overview = async (): Promise<WaitlistOverview> => {
    const view = await placesOverview(em, places);
    return {
      autoMoveUp: view.autoMoveUp,
      rule: PLACES_MESSAGES.rule,
      cutoff: view.cutoff.toISOString(),
      pastCutoff: view.pastCutoff,
      free: view.free,
      pending: view.pending,
      zones: view.zones,
      candidates: view.candidates.map(({ rank, score, submittedAt, vehicle }) => ({
        rank,
        score,
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
    ctx.body = await overview();
  });

  router.put('/admin/waitlist/settings', requireRole('admin'), async (ctx) => {
    const { autoMoveUp } = validate(WaitlistSettingsSchema, ctx.request.body);
    await setAutoMoveUp(em, autoMoveUp);
    // Switched on: places given up while it was off are passed on now.
    if (autoMoveUp) {
      const report = await advanceWaitlist(em, places, new Date());
      if (report.invited.length) onOutbox?.();
    }
    ctx.body = await overview();
  });

  router.post('/admin/waitlist/invite', requireRole('admin', 'reviewer'), async (ctx) => {
    const { vehicleId } = validate(WaitlistInviteSchema, ctx.request.body);
    const invited = await inviteFromWaitlist(em, places, currentUser(ctx), vehicleId);
    onOutbox?.();
    ctx.status = 201;
    ctx.body = invited satisfies WaitlistInviteResult;
  });

  return router;
}

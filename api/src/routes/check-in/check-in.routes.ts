import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GateSyncSchema, INVITATION_MESSAGES } from '@schlosstreffen/shared';
import type { ArrivalsBoard, GateList, GateSyncResult } from '@schlosstreffen/shared/api';
import { arrivalsBoard } from '../../core/check-in/arrivals.js';
import { gateSigner, loadGateList } from '../../core/check-in/gate-list.js';
import { gateWindowOf, recordGateScans } from '../../core/check-in/gate-scans.js';
import { invalid } from '../../core/errors.js';
import { currentUser, requireRole, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';

export interface CheckInRouteDeps {
  em: EntityManager;
  secret: string;
  event: { end: Date; gateOpensAt: Date };
  parkingZones: Array<{ name: string }>;
  /** The server's clock. */
  now: () => Date;
}

/**
 * The gates on the event day: the signed list a device checks cars against while offline, the scans
 * it sends when online again, and the 'Einlass' board.
 */
export function checkInRoutes({ em, secret, event, parkingZones, now }: CheckInRouteDeps): Router<AppState> {
  const router = new Router<AppState>();
  const signer = gateSigner(secret);
  const staff = requireRole('admin', 'reviewer');
  const window = gateWindowOf(event);

  router.get('/admin/check-in/list', staff, async (ctx) => {
    const raw = typeof ctx.query.since === 'string' ? ctx.query.since : undefined;
    const since = raw ? new Date(raw) : undefined;
    if (since && Number.isNaN(since.getTime())) throw invalid(INVITATION_MESSAGES.gateListCursor);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await loadGateList(em, { signer, eventEnd: event.end, since })) satisfies GateList;
  });

  router.post('/admin/check-in/sync', staff, async (ctx) => {
    const body = validate(GateSyncSchema, ctx.request.body);
    const scans = await recordGateScans(
      em,
      { deviceId: body.deviceId, gate: body.gate, staffId: currentUser(ctx).id },
      body.scans.map((scan) => ({ ...scan, scannedAt: new Date(scan.scannedAt) })),
      window,
      now(),
    );
    ctx.body = { scans } satisfies GateSyncResult;
  });

  router.get('/admin/arrivals', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await arrivalsBoard(em, parkingZones)) satisfies ArrivalsBoard;
  });

  return router;
}

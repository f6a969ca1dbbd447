import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CHECK_IN_MESSAGES,
  CheckInSchema,
  flattenIssues,
  GateSyncSchema,
  ONLINE_GATE,
  vehicleDisplayName,
  VISITOR_GATE_MESSAGES,
  VisitorCheckInSchema,
  venueDateTime,
  venueTime,
  type CheckInResultCode,
} from '@schlosstreffen/shared';
import type {
  ArrivalsBoard,
  CheckInRefusal,
  CheckInResult,
  CheckInView,
  GateList,
  GateSyncResult,
  GateVisitorScanState,
} from '@schlosstreffen/shared/api';
import * as v from 'valibot';
import { gateWindowOf, type Gate } from '../../core/check-in/admission.js';
import { arrivalsBoard } from '../../core/check-in/arrivals.js';
import type { CarRow } from '../../core/check-in/check-in.queries.js';
import { gateSigner, loadGateList } from '../../core/check-in/gate-list.js';
import { recordGateScans } from '../../core/check-in/gate-scans.js';
import { checkInOnline } from '../../core/check-in/online-check-in.js';
import type { EditionEvent, EventSource } from '../../core/editions/edition-events.js';
import { conflict, DomainError, invalid, notFound } from '../../core/errors.js';
import { visitorCheckInOnline } from '../../core/check-in/visitor-gate.js';
import { currentUser, requireRole, type AppState } from '../../http/context.js';
import { validate } from '../../http/validate.js';
import { editionOfRequest } from '../../http/edition.js';
import { strictRouter } from '../../http/router.js';

export interface CheckInRouteDeps {
  em: EntityManager;
  secret: string;
  /** The current edition's event: its gate window, end and zones. */
  events: EventSource;
  /** The server's clock: an online check-in's time and which scans the gate window takes. */
  now: () => Date;
}

/** What the gate sees: the invitation, the car and its owner (no contact data). */
function presentCheckIn(car: CarRow): CheckInView {
  const checkedInAt = car.checked_in_at ? new Date(car.checked_in_at) : null;
  return {
    startNumber: car.start_number,
    parkingZone: car.parking_zone,
    checkedIn: checkedInAt !== null,
    checkedInAt: checkedInAt?.toISOString() ?? null,
    vehicle: {
      id: car.vehicle_id,
      title: vehicleDisplayName(car),
      brand: car.brand,
      model: car.model,
      year: car.year,
      color: car.color ?? null,
      status: car.status,
    },
    owner: { firstName: car.first_name, lastName: car.last_name },
  };
}

/** The body of a refused online check-in (its code, and the German text of that code) as an error. */
function refusal(
  result: Exclude<CheckInResultCode, 'checked_in'>,
  car: CarRow | null,
  window: { opensAt: Date; closesAt: Date },
): DomainError {
  switch (result) {
    case 'already_checked_in': {
      const view = presentCheckIn(car!);
      const message = CHECK_IN_MESSAGES.already_checked_in(venueTime(new Date(view.checkedInAt!)));
      return conflict(message, { result, ...view } satisfies Omit<CheckInRefusal, 'message'>);
    }
    case 'fee_open': {
      const view = presentCheckIn(car!);
      return conflict(CHECK_IN_MESSAGES.fee_open, {
        result,
        feeOpenCents: car!.fee_open_cents,
        ...view,
      } satisfies Omit<Extract<CheckInRefusal, { result: 'fee_open' }>, 'message'>);
    }
    case 'unknown_code':
      return new DomainError('not_found', CHECK_IN_MESSAGES.unknown_code, { details: { result } });
    case 'other_edition':
      return conflict(CHECK_IN_MESSAGES.other_edition(car!.edition_name), { result });
    case 'outside_window':
      return conflict(
        CHECK_IN_MESSAGES.outside_window(venueDateTime(window.opensAt), venueDateTime(window.closesAt)),
        { result },
      );
    default:
      return conflict(CHECK_IN_MESSAGES[result], { result });
  }
}

/**
 * The gates on the event day: the online check-in, the signed list a device checks cars against
 * while offline, the scans it sends when online again, and the 'Einlass' board.
 */
/** The gate of the current edition: its invitations and its gate window. */
const gateOf = (event: EditionEvent): Gate => ({ editionId: event.edition.id, window: gateWindowOf(event) });

export function checkInRoutes({ em, secret, events, now }: CheckInRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  const signer = gateSigner(secret);
  const staff = requireRole('admin', 'reviewer');
  const eventNow = () => events.at(now());

  router.post('/admin/check-in', staff, async (ctx) => {
    const parsed = v.safeParse(CheckInSchema, ctx.request.body ?? {});
    // A code longer than any check-in code is as unknown as a missing one.
    if (!parsed.success && parsed.issues.some((issue) => issue.type === 'max_length')) {
      throw new DomainError('invalid', CHECK_IN_MESSAGES.unknown_code, {
        issues: flattenIssues(parsed.issues),
        details: { result: 'unknown_code' },
      });
    }
    const { code } = validate(CheckInSchema, ctx.request.body);
    const gate = gateOf(await eventNow());
    const { window } = gate;
    const { result, car } = await checkInOnline(em, code, currentUser(ctx).id, gate, now());
    if (result !== 'checked_in') throw refusal(result, car, window);
    ctx.body = {
      result,
      message: CHECK_IN_MESSAGES.checked_in,
      ...presentCheckIn(car!),
    } satisfies CheckInResult;
  });

  router.get('/admin/check-in/list', staff, async (ctx) => {
    const raw = typeof ctx.query.since === 'string' ? ctx.query.since : undefined;
    const since = raw ? new Date(raw) : undefined;
    if (since && Number.isNaN(since.getTime())) throw invalid(CHECK_IN_MESSAGES.gateListCursor);
    ctx.set('Cache-Control', 'no-store');
    const event = await eventNow();
    ctx.body = (await loadGateList(em, {
      signer,
      editionId: event.edition.id,
      eventEnd: event.end,
      since,
    })) satisfies GateList;
  });

  router.post('/admin/check-in/sync', staff, async (ctx) => {
    const body = validate(GateSyncSchema, ctx.request.body);
    ctx.body = (await recordGateScans(
      em,
      { deviceId: body.deviceId, gate: body.gate, staffId: currentUser(ctx).id },
      body.scans.map((scan) => ({ ...scan, scannedAt: new Date(scan.scannedAt) })),
      // Each scan at the gate of the edition current when it was made.
      async (scannedAt) => gateOf(await events.at(scannedAt)),
      {
        now: now(),
        since: body.since ? new Date(body.since) : null,
        visitorScans: body.visitorScans.map((scan) => ({ ...scan, scannedAt: new Date(scan.scannedAt) })),
      },
    )) satisfies GateSyncResult;
  });

  // A visitor ticket at a device without a list: decided and kept at the server, as a gate's scan.
  router.post('/admin/check-in/visitor', staff, async (ctx) => {
    const body = validate(VisitorCheckInSchema, ctx.request.body);
    const at = now();
    const state = await visitorCheckInOnline(
      em,
      { id: randomUUID(), code: body.code, kind: body.kind },
      { deviceId: randomUUID(), gate: body.gate || ONLINE_GATE, staffId: currentUser(ctx).id },
      gateOf(await events.at(at)),
      at,
    );
    if (!state) throw notFound(VISITOR_GATE_MESSAGES.ticket_invalid);
    ctx.body = state satisfies GateVisitorScanState;
  });

  router.get('/admin/arrivals', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    // Past editions' boards are readable (`?edition=`).
    const event = await editionOfRequest(ctx, events);
    ctx.body = (await arrivalsBoard(em, event.edition.id, event.parkingZones)) satisfies ArrivalsBoard;
  });

  return router;
}

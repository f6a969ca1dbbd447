import { Readable, pipeline } from 'node:stream';
import { juryPlacesOf } from '../../core/jury/jury-results.js';
import type Router from '@koa/router';
import {
  AdminStatusUpdateSchema,
  AdminVehicleExportQuerySchema,
  AdminVehicleListQuerySchema,
  APPLICATION_CSV_HEADER,
  BulkStatusApplySchema,
  BulkStatusPreviewSchema,
  CorrectionSchema,
  formatScore,
  INVITATION_MESSAGES,
  INVITATION_STATE_LABELS,
  STATUS_LABELS,
  venueDate,
  venueDateTime,
  OwnerStatusPatchSchema,
  PAYMENT_MESSAGES,
  VEHICLE_MESSAGES,
  vehicleSchemas,
} from '@schlosstreffen/shared';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  AdminVehiclePage,
  BulkStatusPreview,
  BulkStatusResult,
  EarlierApplications,
  InvitationDeclineResult,
} from '@schlosstreffen/shared/api';
import {
  currentUser,
  requestNow,
  requireRole,
  requireUser,
  type AppContext,
  type AppState,
} from '../../http/context.js';
import { uuidParam, validate } from '../../http/validate.js';
import { editionOfRequest } from '../../http/edition.js';
import { presentVehicle } from './vehicle.presenter.js';
import { spreadsheetCsv } from '../../http/csv.js';
import { applicationRows } from '../../core/vehicles/vehicle-export.js';
import { adminVehiclePage } from '../../core/vehicles/admin-list.js';
import { previewBulkStatus } from '../../core/vehicles/bulk-status.js';
import { earlierApplications } from '../../core/vehicles/earlier-applications.js';
import type { VehicleService } from '../../core/vehicles/vehicle.service.js';
import type { EventSource } from '../../core/editions/edition-events.js';
import { phasesOf } from '../../core/editions/editions.js';
import type { Vehicle } from '../../core/model/vehicle.entity.js';
import type { PublicListVersion } from '../../core/public-list/public-inputs.js';
import { createPublicListReader, publicListReader } from '../../core/public-list/public-vehicle.read.js';
import { PUBLIC_LIST_CACHE_CONTROL, PUBLIC_LIST_CODINGS, publicListEtag } from './public-list.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear, param, type AuditOptions } from '../../http/audited.js';
import { notFound } from '../../core/errors.js';
import { giroCodeSvgOf, paymentsOfInvitations } from '../../core/payments/payments.js';

/** The export in the audit log: the edition, the status filter, whether a search was used (not its text). */
const EXPORT_AUDIT: AuditOptions = {
  target: editionYear,
  details: ({ query }) => ({
    status: typeof query.status === 'string' ? query.status : 'all',
    search: typeof query.q === 'string' && query.q.trim() !== '',
  }),
};

/** The vehicle id of the path; anything but a uuid names no vehicle. */
export const vehicleId = (ctx: AppContext) => uuidParam(ctx.params.id, VEHICLE_MESSAGES.vehicleNotFound);

export interface VehicleRouteDeps {
  em: EntityManager;
  vehicles: VehicleService;
  /** The current edition's year: the latest year a vehicle may be from. */
  maxYear: () => Promise<number>;
  /** Announced changes of the public list; without them every read checks the database. */
  publicListChanges?: PublicListVersion;
  /** The editions: the public list is the current one's, staff lists the chosen one's. */
  events: EventSource;
  /** The app's clock: which edition's list is public. */
  now?: () => Date;
}

/** /vehicles/… for owners (and staff), the public list, and /admin/… for reviewers and admins. */
export function vehicleRoutes({
  em,
  vehicles,
  maxYear,
  publicListChanges,
  events,
  now = () => new Date(),
}: VehicleRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  // The schemas of each edition's year, built once.
  const schemasOfYear = new Map<number, ReturnType<typeof vehicleSchemas>>();
  const schemas = async () => {
    const year = await maxYear();
    let built = schemasOfYear.get(year);
    if (!built) schemasOfYear.set(year, (built = vehicleSchemas(year)));
    return built;
  };
  const currentEditionId = async () => (await events.at(now())).edition.id;
  const readPublicList = publicListChanges
    ? publicListReader(em, currentEditionId, publicListChanges)
    : createPublicListReader(em, currentEditionId);

  // Also answered in front of the middleware (withPublicListFastPath) with the same bytes and headers.
  router.get('/vehicles/public', async (ctx) => {
    const list = await readPublicList();
    const coding = ctx.acceptsEncodings(...PUBLIC_LIST_CODINGS);
    const compressed = coding === 'br' || coding === 'gzip' ? coding : undefined;
    ctx.vary('Accept-Encoding');
    ctx.set('Cache-Control', PUBLIC_LIST_CACHE_CONTROL);
    ctx.set('ETag', publicListEtag(list, compressed));
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    if (compressed) {
      ctx.set('Content-Encoding', compressed);
      ctx.body = await list.encoded(compressed);
    } else {
      ctx.body = list.body;
    }
  });

  /** The phases of the vehicles' editions now, by edition id. */
  const phasesOfList = (ctx: AppContext, list: Vehicle[]) =>
    phasesOf(
      em.fork(),
      [...new Map(list.map((vehicle) => [vehicle.edition.id, vehicle.edition])).values()],
      requestNow(ctx),
    );

  router.get('/vehicles', requireUser, async (ctx) => {
    const list = await vehicles.listOwn(currentUser(ctx));
    const invitations = await vehicles.invitationsOf(list);
    const payments = await paymentsOfInvitations(
      em.fork(),
      [...invitations.values()].map((i) => i.id),
    );
    const phases = await phasesOfList(ctx, list);
    const places = await juryPlacesOf(
      em.fork(),
      list.map((vehicle) => vehicle.id),
    );
    ctx.body = list.map((vehicle) => ({
      ...presentVehicle(vehicle, { invitations, payments, phases }),
      juryPlaces: places.get(vehicle.id) ?? [],
    }));
  });

  router.post('/vehicles', requireUser, async (ctx) => {
    const input = validate((await schemas()).VehicleSchema, ctx.request.body);
    const vehicle = await vehicles.create(currentUser(ctx), input);
    ctx.status = 201;
    ctx.body = presentVehicle(vehicle);
  });

  router.get('/vehicles/:id', requireUser, async (ctx) => {
    const vehicle = await vehicles.get(currentUser(ctx), vehicleId(ctx));
    const invitations = await vehicles.invitationsOf([vehicle]);
    ctx.body = presentVehicle(vehicle, {
      invitations,
      payments: await paymentsOfInvitations(
        em.fork(),
        [...invitations.values()].map((i) => i.id),
      ),
      phases: await phasesOfList(ctx, [vehicle]),
    });
  });

  // The GiroCode of the car's open fee (EPC069-12), as the dashboard and the invitation page show it.
  router.get('/vehicles/:id/girocode.svg', requireUser, async (ctx) => {
    const vehicle = await vehicles.get(currentUser(ctx), vehicleId(ctx));
    const svg = await giroCodeSvgOf(em.fork(), vehicle.id);
    if (!svg) throw notFound(PAYMENT_MESSAGES.noPayment);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'image/svg+xml';
    ctx.body = svg;
  });

  router.patch('/vehicles/:id', requireUser, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    // A status comes with its consents when it submits (OwnerStatusPatchSchema).
    const change = 'status' in body ? validate(OwnerStatusPatchSchema, body) : undefined;
    const edit = validate((await schemas()).VehicleEditSchema, body);
    const vehicle = await vehicles.update(currentUser(ctx), vehicleId(ctx), edit, change);
    ctx.body = presentVehicle(vehicle);
  });

  router.delete('/vehicles/:id', requireUser, async (ctx) => {
    await vehicles.delete(currentUser(ctx), vehicleId(ctx));
    ctx.status = 204;
  });

  // 'Für {Ausgabe} bewerben': an earlier application's car applies for the current edition, as a
  // draft (no consents; its submission asks for them).
  router.post('/vehicles/:id/reapply', requireUser, async (ctx) => {
    const vehicle = await vehicles.reapply(currentUser(ctx), vehicleId(ctx));
    ctx.status = 201;
    ctx.body = presentVehicle(vehicle);
  });

  router.post('/vehicles/:id/decline', requireUser, async (ctx) => {
    const { status, vehicle } = await vehicles.decline(currentUser(ctx), vehicleId(ctx));
    ctx.body = {
      status,
      message: status === 'declined' ? INVITATION_MESSAGES.declined : INVITATION_MESSAGES.alreadyDeclined,
      vehicle: presentVehicle(vehicle, { invitations: await vehicles.invitationsOf([vehicle]) }),
    } satisfies InvitationDeclineResult & { vehicle: unknown };
  });

  router.get('/vehicles/:id/reviews', requireUser, async (ctx) => {
    ctx.body = await vehicles.history(currentUser(ctx), vehicleId(ctx));
  });

  const staff = requireRole('admin', 'reviewer');

  // One page of the dashboard's list: status filter, search, sort and keyset cursor, with the counts
  // per status for the search.
  router.get('/admin/vehicles', staff, async (ctx) => {
    const query = validate(AdminVehicleListQuerySchema, ctx.query);
    const { edition } = await editionOfRequest(ctx, events);
    const page = await adminVehiclePage(em, { ...query, editionId: edition.id });
    const invitations = await vehicles.invitationsOf(page.vehicles);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      items: page.vehicles.map((vehicle) => presentVehicle(vehicle, { withOwner: true, invitations })),
      counts: page.counts,
      nextCursor: page.nextCursor,
    } satisfies AdminVehiclePage;
  });

  // The organizers' export, filtered like the dashboard (?status=…&q=…, the same condition), streamed.
  router.get('/admin/vehicles.csv', staff, audited('vehicles.export_csv', EXPORT_AUDIT), async (ctx) => {
    const filter = validate(AdminVehicleExportQuerySchema, ctx.query);
    const { edition } = await editionOfRequest(ctx, events);
    const rows = applicationRows(em, { ...filter, editionId: edition.id }, currentUser(ctx));
    // The first batch before the answer starts: a failing database still gets its error status.
    const first = await rows.next();
    await auditOf(ctx).write(em);
    ctx.set('Cache-Control', 'no-store');
    ctx.set(
      'Content-Disposition',
      `attachment; filename="bewerbungen-${edition.year}-${venueDate(new Date())}.csv"`,
    );
    ctx.type = 'text/csv; charset=utf-8';
    async function* records() {
      for (let next = first; !next.done; next = await rows.next()) {
        const row = next.value;
        yield [
          row.id,
          STATUS_LABELS[row.status],
          row.brand,
          row.model,
          row.name ?? '',
          row.year,
          row.color ?? '',
          row.firstName ?? '',
          row.lastName ?? '',
          row.email,
          row.phone ?? '',
          row.submittedAt ? venueDateTime(row.submittedAt) : '',
          row.score === null ? '' : formatScore(row.score),
          row.startNumber ?? '',
          row.parkingZone ?? '',
          row.confirmBy ? venueDateTime(row.confirmBy) : '',
          row.startNumber === null ? '' : INVITATION_STATE_LABELS[row.releaseReason ?? 'held'],
          row.checkedInAt ? venueDateTime(row.checkedInAt) : '',
          row.checkedInGate ?? '',
        ];
      }
    }
    const csv = spreadsheetCsv(APPLICATION_CSV_HEADER);
    ctx.body = csv;
    // Read as the client takes the bytes; a failure or a client that leaves ends both streams.
    pipeline(Readable.from(records()), csv, () => undefined);
  });

  // Beside the detail dialog: the owner's applications in other editions and what changed since the last.
  router.get(
    '/admin/vehicles/:id/earlier',
    staff,
    audited('vehicles.view_account', { target: param('id') }),
    async (ctx) => {
      const earlier = await earlierApplications(em, currentUser(ctx), vehicleId(ctx));
      await auditOf(ctx).write(em);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = earlier satisfies EarlierApplications;
    },
  );

  // An admin's correction of an edition that is over: a status, or a confirmed car's check-in, with a
  // reason (status log and audit log); the body's reason stays in the status log only.
  router.post(
    '/admin/vehicles/:id/correction',
    requireRole('admin'),
    audited('vehicles.correct', { target: param('id') }),
    async (ctx) => {
      const input = validate(CorrectionSchema, ctx.request.body);
      const vehicle = await vehicles.correct(currentUser(ctx), vehicleId(ctx), input, auditOf(ctx));
      ctx.body = presentVehicle(vehicle, { invitations: await vehicles.invitationsOf([vehicle]) });
    },
  );

  router.patch('/admin/vehicles/:id/status', staff, async (ctx) => {
    const input = validate(AdminStatusUpdateSchema, ctx.request.body);
    const vehicle = await vehicles.setStatus(currentUser(ctx), vehicleId(ctx), input);
    ctx.body = presentVehicle(vehicle);
  });

  // Bulk status change, step one: what changing the hand-picked ids, or every hit of the dashboard's
  // filter, of the edition would do (rows, mails and recipients, rows left out and why). Writes nothing.
  // It names every recipient (name and address) of up to 500 mails: audited.
  router.post(
    '/admin/vehicles/bulk-status/preview',
    staff,
    audited('vehicles.bulk_preview', { target: editionYear }),
    async (ctx) => {
      const input = validate(BulkStatusPreviewSchema, ctx.request.body);
      const { edition } = await editionOfRequest(ctx, events);
      const selection = input.ids ? { ids: input.ids } : { filter: input.filter! };
      const preview = await previewBulkStatus(
        em,
        currentUser(ctx),
        edition.id,
        input.status,
        selection,
        requestNow(ctx),
      );
      await auditOf(ctx).write(em);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = preview satisfies BulkStatusPreview;
    },
  );

  // Step two: the rows of the preview with the old status each had; every row in a transaction of its
  // own, a stale one refused alone. Sent again, it changes and mails nothing twice.
  router.post('/admin/vehicles/bulk-status', staff, async (ctx) => {
    const input = validate(BulkStatusApplySchema, ctx.request.body);
    const { edition } = await editionOfRequest(ctx, events);
    ctx.body = (await vehicles.setStatuses(currentUser(ctx), edition.id, input)) satisfies BulkStatusResult;
  });

  return router;
}

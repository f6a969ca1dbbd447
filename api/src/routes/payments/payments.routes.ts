import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CashPaymentSchema,
  EDITION_MESSAGES,
  formatEuro,
  PAYMENT_MESSAGES,
  PaymentAssignSchema,
  PaymentWaiveSchema,
} from '@schlosstreffen/shared';
import type {
  PaymentImportResult,
  PaymentRow,
  PaymentsOverview,
  ServerMessage,
} from '@schlosstreffen/shared/api';
import * as v from 'valibot';
import { lockCar } from '../../core/check-in/check-in.queries.js';
import type { EventSource } from '../../core/editions/edition-events.js';
import { assertEditionOpenForChanges } from '../../core/editions/frozen.js';
import { invalid, notFound } from '../../core/errors.js';
import { Edition } from '../../core/model/edition.entity.js';
import {
  assignEntry,
  bookCashAtGate,
  confirmRefundExport,
  exportRefunds,
  findPayments,
  KASSENBERICHT_HEADER,
  kassenbericht,
  paymentsOverview,
  refundExportFile,
  waivePayment,
} from '../../core/payments/payments-admin.js';
import { importStatement } from '../../core/payments/statement-import.js';
import {
  CSV_PRESETS,
  MAX_STATEMENT_FILE_BYTES,
  readCsvStatement,
  readStatementFile,
} from '../../core/payments/statements/index.js';
import { audited, auditOf } from '../../http/audited.js';
import { currentUser, requestNow, requireRole, type AppContext, type AppState } from '../../http/context.js';
import { spreadsheetCsvText } from '../../http/csv.js';
import { strictRouter } from '../../http/router.js';
import { validate } from '../../http/validate.js';

export interface PaymentRouteDeps {
  em: EntityManager;
  events: EventSource;
  publicUrl: string;
  onOutbox?: () => void;
}

function yearOf(ctx: AppContext): number {
  const raw = ctx.params.year ?? '';
  if (!/^\d{4}$/.test(raw)) throw invalid(EDITION_MESSAGES.yearParam);
  return Number(raw);
}

function idOf(ctx: AppContext, name: string): string {
  const raw = ctx.params[name] ?? '';
  if (!v.is(v.pipe(v.string(), v.uuid()), raw)) throw notFound();
  return raw;
}

/** The request's body as bytes (a statement file), at most `limit` bytes. */
async function rawBody(ctx: AppContext, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw invalid(`Die Datei ist zu groß (höchstens ${Math.round(limit / 1024 / 1024)} MB).`);
    chunks.push(chunk);
  }
  if (size === 0) throw invalid(PAYMENT_MESSAGES.fileRequired);
  return Buffer.concat(chunks);
}

const noStore = (ctx: AppContext) => ctx.set('Cache-Control', 'no-store');

/**
 * 'Zahlungen' (admins only: it shows bank data): statements read in and matched, lines assigned by
 * hand, waivers, refunds as SEPA files, the treasurer's report; and the gate's 'Bar bezahlt'.
 */
export function paymentRoutes({ em, events, publicUrl, onOutbox }: PaymentRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');
  const staff = requireRole('admin', 'reviewer');
  const target = (ctx: AppContext) => ctx.params.year;

  router.get('/admin/payments/:year', admin, audited('payments.view', { target }), async (ctx) => {
    const body = await paymentsOverview(em.fork(), yearOf(ctx));
    await auditOf(ctx).write(em);
    noStore(ctx);
    ctx.body = body satisfies PaymentsOverview;
  });

  router.get('/admin/payments/:year/search', admin, async (ctx) => {
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.slice(0, 100) : '';
    noStore(ctx);
    ctx.body = (await findPayments(em.fork(), yearOf(ctx), q)) satisfies PaymentRow[];
  });

  router.post('/admin/payments/:year/import', admin, audited('payments.import', { target }), async (ctx) => {
    const year = yearOf(ctx);
    const edition = await em.fork().findOne(Edition, { year });
    if (!edition) throw notFound();
    if (!edition.fee) throw notFound(PAYMENT_MESSAGES.noFee(year));
    const preset = typeof ctx.query.csv === 'string' ? ctx.query.csv : null;
    if (preset !== null && !(preset in CSV_PRESETS)) throw invalid(PAYMENT_MESSAGES.csvPreset);
    const bytes = await rawBody(ctx, MAX_STATEMENT_FILE_BYTES);
    const read = preset
      ? readCsvStatement(bytes, CSV_PRESETS[preset as keyof typeof CSV_PRESETS])
      : await readStatementFile(bytes);
    const name = typeof ctx.query.name === 'string' ? ctx.query.name : null;
    const outcome = await importStatement(em, { id: edition.id, year }, read, {
      fileName: name,
      importedById: currentUser(ctx).id,
      audit: auditOf(ctx),
      publicUrl,
    });
    onOutbox?.();
    const booked = outcome.bookings.length;
    ctx.body = {
      message: outcome.fileSeenBefore
        ? `Diese Datei wurde schon eingelesen: ${booked} neue Buchungen, ${outcome.counts.known} bereits bekannt.`
        : `Eingelesen: ${booked} Zahlungen gebucht, ${outcome.counts.unassigned} nicht zugeordnet, ${outcome.counts.known} bereits bekannt.`,
      fileSeenBefore: outcome.fileSeenBefore,
      counts: outcome.counts,
      skipped: read.skipped.map((line) => ({
        message: line.message,
        amount: line.amount,
        currency: line.currency,
        bookingDate: line.bookingDate,
      })),
    } satisfies PaymentImportResult;
  });

  router.post(
    '/admin/payments/:year/entries/:id/assign',
    admin,
    audited('payments.assign', { target }),
    async (ctx) => {
      const { paymentId } = validate(PaymentAssignSchema, ctx.request.body);
      await assignEntry(em, yearOf(ctx), idOf(ctx, 'id'), paymentId, currentUser(ctx).id, auditOf(ctx));
      ctx.body = { message: 'Zahlung zugeordnet.' } satisfies ServerMessage;
    },
  );

  router.post(
    '/admin/payments/:year/payments/:id/waive',
    admin,
    audited('payments.waive', { target }),
    async (ctx) => {
      const { reason } = validate(PaymentWaiveSchema, ctx.request.body);
      await waivePayment(
        em,
        yearOf(ctx),
        idOf(ctx, 'id'),
        reason,
        currentUser(ctx).id,
        requestNow(ctx),
        auditOf(ctx),
      );
      ctx.body = { message: 'Startgeld erlassen.' } satisfies ServerMessage;
    },
  );

  router.post(
    '/admin/payments/:year/refunds/export',
    admin,
    audited('payments.refund_export', { target }),
    async (ctx) => {
      const result = await exportRefunds(em, yearOf(ctx), currentUser(ctx).id, requestNow(ctx), auditOf(ctx));
      ctx.status = 201;
      ctx.body = {
        ...result,
        message: `${result.count} Erstattungen über ${formatEuro(result.totalCents)} in der SEPA-Datei.`,
      };
    },
  );

  router.get(
    '/admin/payments/:year/refunds/:id/file',
    admin,
    audited('payments.refund_file', { target }),
    async (ctx) => {
      const file = await refundExportFile(em.fork(), yearOf(ctx), idOf(ctx, 'id'));
      await auditOf(ctx).write(em, { details: { export: ctx.params.id } });
      noStore(ctx);
      ctx.type = 'application/xml';
      ctx.attachment(file.name);
      ctx.body = file.xml;
    },
  );

  router.post(
    '/admin/payments/:year/refunds/:id/confirm',
    admin,
    audited('payments.refund_confirm', { target }),
    async (ctx) => {
      await confirmRefundExport(
        em,
        yearOf(ctx),
        idOf(ctx, 'id'),
        currentUser(ctx).id,
        requestNow(ctx),
        auditOf(ctx),
      );
      ctx.body = { message: 'Erstattungen als überwiesen bestätigt.' } satisfies ServerMessage;
    },
  );

  router.get(
    '/admin/payments/:year/kassenbericht.csv',
    admin,
    audited('payments.report_csv', { target }),
    async (ctx) => {
      const year = yearOf(ctx);
      const text = spreadsheetCsvText(KASSENBERICHT_HEADER, await kassenbericht(em.fork(), year));
      await auditOf(ctx).write(em);
      noStore(ctx);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment(`Kassenbericht-${year}.csv`);
      ctx.body = text;
    },
  );

  // The gate's till: the open fee of a car paid in cash, then it may be checked in.
  router.post('/admin/check-in/cash', staff, audited('payments.cash'), async (ctx) => {
    const { code, gate } = validate(CashPaymentSchema, ctx.request.body);
    const at = requestNow(ctx);
    const event = await events.at(at);
    const booked = await em.fork().transactional(async (tx) => {
      // No cash at the gate once the meeting is over.
      await assertEditionOpenForChanges(tx, event.edition.id, at, 'staff');
      const car = await lockCar(tx, { code }, event.edition.id);
      if (!car || car.edition_id !== event.edition.id) throw notFound(PAYMENT_MESSAGES.noPayment);
      return bookCashAtGate(tx, car.id, currentUser(ctx).id, gate, auditOf(ctx));
    });
    ctx.body = { message: PAYMENT_MESSAGES.cashBooked(formatEuro(booked)) } satisfies ServerMessage;
  });

  return router;
}

import { randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { maskIban, PAYMENT_MESSAGES, type EditionFee } from '@schlosstreffen/shared';
import type { PaymentsOverview, PaymentRow, RefundDueRow } from '@schlosstreffen/shared/api';
import { conflict, invalid, notFound } from '../errors.js';
import {
  feeSettled,
  owedCents,
  paymentStatusOf,
  refundDueCents,
  type PaymentAmounts,
} from '../fees/participation.js';
import type { PendingAudit } from '../pending-audit.js';
import { Edition } from '../model/edition.entity.js';
import { BankEntry, Payment, PaymentBooking, PaymentRefund, RefundExport } from '../model/payment.entity.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { amountsOf, bookCredit } from './payments.js';
import {
  bookingReport,
  lockEditionPayments,
  paymentList,
  recentImports,
  searchPayments,
  unassignedEntries,
  vehicleOfInvitation,
  type PaymentListRow,
} from './payments.queries.js';
import { writePain001 } from './sepa/index.js';

/** The organizers' side of the fee: the overview, assigning by hand, waivers, cash, refunds, the report. */

const amountsOfRow = (row: PaymentListRow): PaymentAmounts => ({
  amountCents: row.amount_cents,
  paidCents: row.paid_cents,
  refundedCents: row.refunded_cents,
  keptCents: row.kept_cents,
  waived: row.waived_at !== null,
});

const held = (row: PaymentListRow) =>
  row.released_at === null && (row.vehicle_status === 'invited' || row.vehicle_status === 'confirmed');

function presentRow(row: PaymentListRow): PaymentRow {
  return {
    id: row.id,
    reference: row.reference,
    startNumber: row.start_number,
    vehicleTitle: row.vehicle_title,
    ownerName: row.owner_name,
    status: paymentStatusOf(amountsOfRow(row)),
    amountCents: row.amount_cents,
    paidCents: row.paid_cents,
    refundedCents: row.refunded_cents,
    dueAt: row.due_at ? new Date(row.due_at).toISOString() : null,
    waiveReason: row.waive_reason,
    placeHeld: held(row),
    noDeadline: held(row) && row.due_at === null,
  };
}

/** What must go back per payment and to whom (the account the last transfer came from). */
function refundDue(row: PaymentListRow): RefundDueRow | null {
  const due = refundDueCents(amountsOfRow(row)) - row.pending_refund_cents;
  if (due <= 0) return null;
  return {
    paymentId: row.id,
    reference: row.reference,
    startNumber: row.start_number,
    ownerName: row.owner_name,
    amountCents: due,
    payerName: row.last_payer_name,
    payerIbanMasked: row.last_payer_iban ? maskIban(row.last_payer_iban) : null,
    bySepa: row.last_payer_iban !== null,
  };
}

async function editionOf(em: EntityManager, year: number): Promise<Edition & { fee: EditionFee }> {
  const edition = await em.findOne(Edition, { year });
  if (!edition) throw notFound(`Die Ausgabe ${year} gibt es nicht.`);
  if (!edition.fee) throw notFound(PAYMENT_MESSAGES.noFee(year));
  return edition as Edition & { fee: EditionFee };
}

/** The treasurer's figures of an edition: expected, received, open, waived, refunded, unassigned. */
function totalsOf(rows: PaymentListRow[], unassignedCents: number) {
  let expected = 0;
  let received = 0;
  let open = 0;
  let waived = 0;
  let refunded = 0;
  let refundDueTotal = 0;
  for (const row of rows) {
    const amounts = amountsOfRow(row);
    expected += owedCents(amounts);
    received += row.paid_cents;
    refunded += row.refunded_cents;
    if (amounts.waived) waived += row.amount_cents;
    if (held(row) && !amounts.waived) open += Math.max(0, row.amount_cents - row.paid_cents);
    refundDueTotal += refundDueCents(amounts);
  }
  return {
    expectedCents: expected,
    receivedCents: received,
    openCents: open,
    waivedCents: waived,
    refundedCents: refunded,
    refundDueCents: refundDueTotal,
    unassignedCents,
  };
}

/** The screen 'Zahlungen': totals, every payment, the lines to assign, refunds due, the SEPA files. */
export async function paymentsOverview(em: EntityManager, year: number): Promise<PaymentsOverview> {
  const edition = await editionOf(em, year);
  const rows = await paymentList(em, edition.id);
  const unassigned = await unassignedEntries(em, edition.id);
  const exports = await em.find(RefundExport, { edition: edition.id }, { orderBy: { createdAt: 'desc' } });
  const imports = await recentImports(em, edition.id);
  return {
    year,
    fee: {
      amountCents: edition.fee.amountCents,
      accountHolder: edition.fee.accountHolder,
      ibanMasked: maskIban(edition.fee.iban),
    },
    totals: totalsOf(
      rows,
      unassigned.reduce((sum, row) => sum + row.amount_cents, 0),
    ),
    payments: rows.map(presentRow),
    unassigned: unassigned.map((row) => ({
      id: row.id,
      amountCents: row.amount_cents,
      bookingDate: row.booking_date,
      payerName: row.payer_name,
      payerIbanMasked: row.payer_iban ? maskIban(row.payer_iban) : null,
      remittance: row.remittance,
    })),
    refundsDue: rows.flatMap((row) => refundDue(row) ?? []),
    refundExports: exports.map((x) => ({
      id: x.id,
      messageId: x.messageId,
      count: x.count,
      totalCents: x.totalCents,
      createdAt: x.createdAt.toISOString(),
      confirmedAt: x.confirmedAt?.toISOString() ?? null,
    })),
    imports: imports.map((row) => ({
      id: row.id,
      fileName: row.file_name,
      format: row.format,
      summary: row.summary,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}

/** Payments to assign a line to, by reference, start number, car or owner. */
export async function findPayments(em: EntityManager, year: number, query: string): Promise<PaymentRow[]> {
  const edition = await editionOf(em, year);
  return (await searchPayments(em, edition.id, query)).map(presentRow);
}

/** Vehicles whose taking part changed with their fee: the public list, signs and gate follow. */
async function participationChanged(tx: EntityManager, payment: Payment): Promise<void> {
  if (!payment.invitation) return;
  const vehicleId = await vehicleOfInvitation(tx, payment.invitation.id);
  if (vehicleId) await refreshPublicVehicles(tx, [vehicleId]);
}

/** Books an unassigned statement line on a payment chosen by a person; audited with both. */
export async function assignEntry(
  em: EntityManager,
  year: number,
  entryId: string,
  paymentId: string,
  byId: string,
  audit?: PendingAudit,
): Promise<void> {
  const edition = await editionOf(em, year);
  await em.fork().transactional(async (tx) => {
    const entry = await tx.findOne(
      BankEntry,
      { id: entryId, edition: edition.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!entry) throw notFound(PAYMENT_MESSAGES.unknownEntry);
    if (entry.outcome !== 'unassigned' || entry.payment) throw conflict(PAYMENT_MESSAGES.entryAssigned);
    const target = await tx.findOne(Payment, { id: paymentId, edition: edition.id });
    if (!target) throw notFound(PAYMENT_MESSAGES.unknownPayment);
    const { payment } = await bookCredit(tx, target.id, entry.amountCents, {
      kind: 'transfer',
      bankEntryId: entry.id,
      bookedById: byId,
      note: 'manuell zugeordnet',
    });
    entry.outcome = 'assigned';
    entry.payment = payment;
    await tx.flush();
    await participationChanged(tx, payment);
    audit?.record(tx, {
      target: year,
      details: {
        entry: entry.id,
        payment: payment.id,
        reference: payment.reference,
        amountCents: entry.amountCents,
      },
    });
  });
}

/** 'Erlassen': an admin lets a car off its fee, with a reason; it takes part as if paid. */
export async function waivePayment(
  em: EntityManager,
  year: number,
  paymentId: string,
  reason: string,
  byId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  const edition = await editionOf(em, year);
  const text = reason.trim();
  if (text.length < 10) throw invalid(PAYMENT_MESSAGES.waiveReason);
  if (text.length > 500) throw invalid(PAYMENT_MESSAGES.waiveReasonMax);
  await em.fork().transactional(async (tx) => {
    const payment = await tx.findOne(
      Payment,
      { id: paymentId, edition: edition.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!payment) throw notFound(PAYMENT_MESSAGES.unknownPayment);
    if (payment.waivedAt) throw conflict(PAYMENT_MESSAGES.alreadyWaived);
    Object.assign(payment, { waivedAt: at, waivedBy: byId, waiveReason: text });
    await tx.flush();
    await participationChanged(tx, payment);
    audit?.record(tx, {
      target: year,
      details: { payment: payment.id, reference: payment.reference, reason: text },
    });
  });
}

/**
 * 'Bar bezahlt' at the gate: the open amount of a car's fee booked as cash, in the gate's
 * transaction, audited. Returns the cents booked; nothing open is an error the gate shows.
 */
export async function bookCashAtGate(
  tx: EntityManager,
  invitationId: string,
  byId: string,
  gate: string,
  audit?: PendingAudit,
): Promise<number> {
  const payment = await tx.findOne(
    Payment,
    { invitation: invitationId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!payment || feeSettled(amountsOf(payment)) || payment.keptCents !== null)
    throw conflict(PAYMENT_MESSAGES.noPayment);
  // The fee removed from the edition since: nothing is owed any more.
  if (!(await tx.findOneOrFail(Edition, payment.edition.id)).fee) throw conflict(PAYMENT_MESSAGES.noPayment);
  const open = payment.amountCents - payment.paidCents;
  await bookCredit(tx, payment.id, open, {
    kind: 'cash',
    bookedById: byId,
    note: `Bar bezahlt am Einlass „${gate}“`,
  });
  await tx.flush();
  await participationChanged(tx, payment);
  const year = (await tx.findOneOrFail(Edition, payment.edition.id)).year;
  audit?.record(tx, {
    target: year,
    details: { payment: payment.id, reference: payment.reference, amountCents: open, gate },
  });
  return open;
}

const ymd = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(at);

/**
 * 'Erstattungen exportieren': every refund due that can go by transfer (the account the money came
 * from is known) goes into one pain.001.001.09 file, kept until the organizer confirms the upload.
 */
export async function exportRefunds(
  em: EntityManager,
  year: number,
  byId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<{ id: string; count: number; totalCents: number }> {
  const edition = await editionOf(em, year);
  return em.fork().transactional(async (tx) => {
    await lockEditionPayments(tx, edition.id);
    const due = (await paymentList(tx, edition.id)).flatMap((row) => {
      const refund = refundDue(row);
      return refund?.bySepa ? [{ row, refund }] : [];
    });
    if (due.length === 0) throw conflict(PAYMENT_MESSAGES.noRefundsDue);
    const stamp = at
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14);
    // Unique per file sent to the bank: the moment and a random part (two exports in one second).
    const messageId = `ST${year}-R${stamp}-${randomBytes(3).toString('hex').toUpperCase()}`;
    const refundExport = tx.create(RefundExport, {
      edition: edition.id,
      messageId,
      totalCents: due.reduce((sum, { refund }) => sum + refund.amountCents, 0),
      count: due.length,
      createdBy: byId,
    });
    const transfers = due.map(({ row, refund }, index) => {
      const endToEndId = `${row.reference}-E${index + 1}`.slice(0, 35);
      tx.create(PaymentRefund, {
        edition: edition.id,
        payment: row.id,
        refundExport,
        amountCents: refund.amountCents,
        creditorName: row.last_payer_name,
        creditorIban: row.last_payer_iban,
        creditorBic: null,
        endToEndId,
      });
      return {
        endToEndId,
        amountCents: refund.amountCents,
        creditorName: row.last_payer_name || row.owner_name || 'Teilnehmer',
        creditorIban: row.last_payer_iban!,
        creditorBic: null,
        remittance: `Erstattung Startgeld ${row.reference} ${edition.name}`,
      };
    });
    refundExport.xml = writePain001({
      messageId,
      createdAt: at,
      executionDate: ymd(at),
      debtor: { name: edition.fee.accountHolder, iban: edition.fee.iban, bic: edition.fee.bic ?? null },
      transfers,
    });
    await tx.flush();
    audit?.record(tx, {
      target: year,
      details: { export: refundExport.id, count: due.length, totalCents: refundExport.totalCents },
    });
    return { id: refundExport.id, count: due.length, totalCents: refundExport.totalCents };
  });
}

/** The file of an export, while it waits for the organizer's confirmation. */
export async function refundExportFile(
  em: EntityManager,
  year: number,
  id: string,
): Promise<{ name: string; xml: string }> {
  const edition = await editionOf(em, year);
  const found = await em.findOne(RefundExport, { id, edition: edition.id });
  if (!found) throw notFound(PAYMENT_MESSAGES.unknownExport);
  if (!found.xml) throw conflict(PAYMENT_MESSAGES.exportConfirmed);
  return { name: `Erstattungen-${year}-${found.messageId}.xml`, xml: found.xml };
}

/** The organizer uploaded the file: its refunds are booked and the payments marked refunded. */
export async function confirmRefundExport(
  em: EntityManager,
  year: number,
  id: string,
  byId: string,
  at: Date,
  audit?: PendingAudit,
): Promise<void> {
  const edition = await editionOf(em, year);
  await em.fork().transactional(async (tx) => {
    const found = await tx.findOne(
      RefundExport,
      { id, edition: edition.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!found) throw notFound(PAYMENT_MESSAGES.unknownExport);
    if (found.confirmedAt) throw conflict(PAYMENT_MESSAGES.exportConfirmed);
    const refunds = await tx.find(
      PaymentRefund,
      { refundExport: found.id },
      { orderBy: { endToEndId: 'asc' } },
    );
    for (const refund of refunds) {
      const payment = await tx.findOneOrFail(
        Payment,
        { id: refund.payment.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      tx.create(PaymentBooking, {
        edition: edition.id,
        payment,
        kind: 'refund',
        amountCents: refund.amountCents,
        refund,
        bookedBy: byId,
      });
      payment.refundedCents += refund.amountCents;
    }
    Object.assign(found, { confirmedAt: at, confirmedBy: byId, xml: null });
    await tx.flush();
    audit?.record(tx, {
      target: year,
      details: { export: found.id, count: refunds.length, totalCents: found.totalCents },
    });
  });
}

export const KASSENBERICHT_HEADER = [
  'Gebucht am',
  'Art',
  'Betrag (EUR)',
  'Verwendungszweck',
  'Startnummer',
  'Buchungstag (Bank)',
  'Quelle',
] as const;

const KIND_LABELS = { transfer: 'Überweisung', cash: 'Bar am Einlass', refund: 'Erstattung' } as const;

/** Cents as '-12,50' by their digits (no floating point). */
function euroCell(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** 'Kassenbericht': every booking with its source (statement line, till, SEPA file), then the totals. */
export async function kassenbericht(em: EntityManager, year: number): Promise<unknown[][]> {
  const edition = await editionOf(em, year);
  const rows = await bookingReport(em, edition.id);
  // The totals from the same rows the screen reads, without its lists of lines and files.
  const unassigned = await unassignedEntries(em, edition.id);
  const t = totalsOf(
    await paymentList(em, edition.id),
    unassigned.reduce((sum, row) => sum + row.amount_cents, 0),
  );
  const lines: unknown[][] = rows.map((row) => [
    new Date(row.booked_at).toISOString(),
    KIND_LABELS[row.kind],
    // A refund's amount went out; its kind says so (a leading minus would read as a formula).
    euroCell(row.amount_cents),
    row.reference,
    row.start_number ?? '',
    row.booking_date ?? '',
    row.bank_entry_id
      ? `Kontoauszug ${String(row.origin?.statement ?? '')} Eintrag ${Number(row.origin?.entryIndex ?? 0) + 1} (Datei ${row.file_sha256?.slice(0, 12) ?? ''}, Buchung ${row.bank_entry_id})`
      : row.refund_export
        ? `SEPA-Datei ${row.refund_export}`
        : (row.note ?? ''),
  ]);
  lines.push([]);
  for (const [label, cents] of [
    ['Erwartet', t.expectedCents],
    ['Eingegangen', t.receivedCents],
    ['Offen', t.openCents],
    ['Erlassen', t.waivedCents],
    ['Erstattet', t.refundedCents],
    ['Erstattung fällig', t.refundDueCents],
    ['Nicht zugeordnet', t.unassignedCents],
  ] as const)
    lines.push(['Summe', label, euroCell(cents), '', '', '', '']);
  return lines;
}

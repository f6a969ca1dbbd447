import { defineEntity, p } from '@mikro-orm/core';
import { createdAt, updatedAt, uuidPk } from './columns.js';
import { Edition } from './edition.entity.js';
import { Invitation } from './invitation.entity.js';
import { User } from './user.entity.js';

/**
 * The participation fee of one invitation ('Startgeld'): its reference, the amount asked, what came
 * in and went back (sums of its bookings, kept in the same transaction as each booking), its
 * deadline, and a waiver. It outlives the invitation: bookkeeping keeps a booking for ten years
 * (§ 147 AO), so an account's deletion leaves the row and its bookings without the person.
 */
const PaymentSchema = defineEntity({
  name: 'Payment',
  tableName: 'payment',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    invitation: () => p.oneToOne(Invitation).owner().nullable().unique().deleteRule('set null'),
    /** 'ST26-K7Q2P-4': unique over all editions, with a check character. */
    reference: p.string().length(20).unique(),
    amountCents: p.integer(),
    /** Transfers and cash received, in cents. */
    paidCents: p.integer().default(0),
    /** Refunds sent (confirmed exports), in cents. */
    refundedCents: p.integer().default(0),
    /**
     * What the club keeps once the place is given up (the refund rule at that moment); null while
     * the place is held, when the whole amount is owed.
     */
    keptCents: p.integer().nullable(),
    /** The confirm-by deadline plus the edition's days to pay; null without a confirm-by deadline. */
    dueAt: p.datetime().nullable(),
    /** When the reminder mail was queued; set once. */
    remindedAt: p.datetime().nullable(),
    waivedAt: p.datetime().nullable(),
    waivedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    waiveReason: p.text().nullable(),
    createdAt: createdAt(),
    /** Any change (a booking, a waiver, a release): the gate's list sends the car again. */
    updatedAt: updatedAt(),
  },
});
export class Payment extends PaymentSchema.class {}
PaymentSchema.setClass(Payment);

export const BANK_ENTRY_OUTCOMES = [
  'paid',
  'partial',
  'overpaid',
  'already_paid',
  'unassigned',
  'assigned',
] as const;
export type BankEntryOutcome = (typeof BANK_ENTRY_OUTCOMES)[number];

/** One uploaded statement file: who read it in, when, and what came of it. */
const BankImportSchema = defineEntity({
  name: 'BankImport',
  tableName: 'bank_import',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    fileSha256: p.string().length(64).index(),
    fileName: p.string().length(200).nullable(),
    /** 'camt.053', 'camt.052', 'csv' or a mix in a ZIP ('camt.053+camt.052'). */
    format: p.string().length(40),
    importedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    /** Counts per outcome, skipped lines and lines known before. */
    summary: p.json<Record<string, number>>(),
    createdAt: createdAt(),
  },
});
export class BankImport extends BankImportSchema.class {}
BankImportSchema.setClass(BankImport);

/**
 * A credit of a statement, kept for matching and refunds: its identity (statement, references,
 * amount) makes a second import of the same line book nothing. After 90 days an entry nobody
 * claimed keeps only its amount and date.
 */
const BankEntrySchema = defineEntity({
  name: 'BankEntry',
  tableName: 'bank_entry',
  uniques: [{ properties: ['edition', 'identity'] }],
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    bankImport: () => p.manyToOne(BankImport).deleteRule('cascade'),
    identity: p.string().length(64),
    /** The line's key without its statement (a camt.052 report and the later camt.053). */
    bankKey: p.string().length(64).nullable().index(),
    amountCents: p.integer(),
    bookingDate: p.string().columnType('date').nullable(),
    payerName: p.text().nullable(),
    payerIban: p.string().length(34).nullable(),
    remittance: p.text().nullable(),
    /** Where in the file: statement id, entry and transaction position, or CSV line. */
    origin: p.json<Record<string, unknown>>(),
    outcome: p.enum(BANK_ENTRY_OUTCOMES),
    payment: () => p.manyToOne(Payment).nullable().deleteRule('set null'),
    /** Payer, IBAN and text removed (90 days unclaimed, or the account deleted). */
    prunedAt: p.datetime().nullable(),
    createdAt: createdAt(),
  },
});
export class BankEntry extends BankEntrySchema.class {}
BankEntrySchema.setClass(BankEntry);

export const PAYMENT_BOOKING_KINDS = ['transfer', 'cash', 'refund'] as const;
export type PaymentBookingKind = (typeof PAYMENT_BOOKING_KINDS)[number];

/** Money booked on a payment, each traced to its source: a statement line, the gate's till, a refund. */
const PaymentBookingSchema = defineEntity({
  name: 'PaymentBooking',
  tableName: 'payment_booking',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    payment: () => p.manyToOne(Payment).deleteRule('cascade'),
    kind: p.enum(PAYMENT_BOOKING_KINDS),
    /** Positive; a refund's amount went out. */
    amountCents: p.integer(),
    bankEntry: () => p.oneToOne(BankEntry).owner().nullable().unique().deleteRule('restrict'),
    refund: () => p.oneToOne(PaymentRefund).owner().nullable().unique().deleteRule('restrict'),
    bookedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    /** 'manuell zugeordnet', 'Bar bezahlt am Einlass Nord' … */
    note: p.text().nullable(),
    createdAt: createdAt(),
  },
});
export class PaymentBooking extends PaymentBookingSchema.class {}
PaymentBookingSchema.setClass(PaymentBooking);

/** A SEPA file of refunds for the club's online banking; confirmed once the organizer uploaded it. */
const RefundExportSchema = defineEntity({
  name: 'RefundExport',
  tableName: 'refund_export',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    messageId: p.string().length(35).unique(),
    /** The pain.001.001.09 document, kept to download again until confirmed. */
    xml: p.text().nullable(),
    totalCents: p.integer(),
    count: p.integer(),
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    confirmedAt: p.datetime().nullable(),
    confirmedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    createdAt: createdAt(),
  },
});
export class RefundExport extends RefundExportSchema.class {}
RefundExportSchema.setClass(RefundExport);

/** One transfer back in an export: to whom (the account the money came from) and how much. */
const PaymentRefundSchema = defineEntity({
  name: 'PaymentRefund',
  tableName: 'payment_refund',
  properties: {
    id: uuidPk(),
    edition: () => p.manyToOne(Edition).deleteRule('cascade'),
    payment: () => p.manyToOne(Payment).deleteRule('cascade'),
    refundExport: () => p.manyToOne(RefundExport).deleteRule('cascade'),
    amountCents: p.integer(),
    creditorName: p.text().nullable(),
    creditorIban: p.string().length(34).nullable(),
    creditorBic: p.string().length(11).nullable(),
    endToEndId: p.string().length(35),
    createdAt: createdAt(),
  },
});
export class PaymentRefund extends PaymentRefundSchema.class {}
PaymentRefundSchema.setClass(PaymentRefund);

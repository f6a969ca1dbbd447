import type { PaymentStatus } from '../payments/payment-status.js';

/** A car's fee as its owner's vehicle JSON carries it (`payment`); absent when the edition has no fee. */
export interface VehiclePayment {
  status: PaymentStatus;
  /** The payment reference, e.g. 'ST26-K7Q2P-K'. */
  reference: string;
  /** The fee, in cents. */
  amountCents: number;
  /** Received so far (transfers and cash at the gate), in cents. */
  paidCents: number;
  /** The payment deadline (the invitation's confirm-by deadline plus the edition's days to pay); null without one. */
  dueAt: string | null;
  /** Where to transfer it (the edition's account), while something is open; null otherwise. */
  payTo: { accountHolder: string; iban: string; bic: string | null } | null;
}

/** A payment on the screen 'Zahlungen'. */
export interface PaymentRow {
  id: string;
  reference: string;
  startNumber: number | null;
  vehicleTitle: string | null;
  /** The owner's name; null once the account is deleted (the booking stays). */
  ownerName: string | null;
  status: PaymentStatus;
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  dueAt: string | null;
  waiveReason: string | null;
  /** The car still holds its place. */
  placeHeld: boolean;
  /** A held place without a payment deadline (invited after the cut-off): listed for the organizers. */
  noDeadline: boolean;
}

/** A statement line no reference matched, to assign by hand. */
export interface UnassignedEntry {
  id: string;
  amountCents: number;
  bookingDate: string | null;
  payerName: string | null;
  /** 'DE89 **** **** 3000' */
  payerIbanMasked: string | null;
  remittance: string | null;
}

/** Money to go back: a decline within the refund rule, a surplus, a payment after the place was given up. */
export interface RefundDueRow {
  paymentId: string;
  reference: string;
  startNumber: number | null;
  ownerName: string | null;
  amountCents: number;
  payerName: string | null;
  payerIbanMasked: string | null;
  /** The account the money came from is known: it goes into the SEPA file; otherwise in cash. */
  bySepa: boolean;
}

export interface RefundExportView {
  id: string;
  messageId: string;
  count: number;
  totalCents: number;
  createdAt: string;
  confirmedAt: string | null;
}

export interface PaymentTotals {
  expectedCents: number;
  receivedCents: number;
  openCents: number;
  waivedCents: number;
  refundedCents: number;
  refundDueCents: number;
  unassignedCents: number;
}

/** GET /api/admin/payments/{year}: the screen 'Zahlungen'. */
export interface PaymentsOverview {
  year: number;
  fee: { amountCents: number; accountHolder: string; ibanMasked: string };
  totals: PaymentTotals;
  payments: PaymentRow[];
  unassigned: UnassignedEntry[];
  refundsDue: RefundDueRow[];
  refundExports: RefundExportView[];
  imports: Array<{
    id: string;
    fileName: string | null;
    format: string;
    summary: Record<string, number>;
    createdAt: string;
  }>;
}

/** POST /api/admin/payments/{year}/import: what the file did. */
export interface PaymentImportResult {
  message: string;
  fileSeenBefore: boolean;
  counts: Record<
    'paid' | 'partial' | 'overpaid' | 'already_paid' | 'unassigned' | 'assigned' | 'known' | 'skipped',
    number
  >;
  /** Lines the reader skipped, with the reason in German (debits, another currency, not booked). */
  skipped: Array<{ message: string; amount: string; currency: string; bookingDate: string | null }>;
}

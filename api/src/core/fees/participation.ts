import type { EditionFee, PaymentStatus } from '@schlosstreffen/shared';

/** The amounts a payment's status is read from (its row, or a query's). */
export interface PaymentAmounts {
  amountCents: number;
  paidCents: number;
  refundedCents: number;
  /** Set once the place was given up: what the club keeps; null while the place is held. */
  keptCents: number | null;
  waived: boolean;
}

/** What the club is owed: nothing once waived, the kept part once the place is given up, else the fee. */
export function owedCents(p: PaymentAmounts): number {
  if (p.waived) return 0;
  return p.keptCents ?? p.amountCents;
}

/** What must go back: everything received beyond what is owed, less what went back already. */
export function refundDueCents(p: PaymentAmounts): number {
  return Math.max(0, p.paidCents - owedCents(p) - p.refundedCents);
}

/**
 * The fee's state: a refund owed comes first (a decline after paying, a surplus), then a waiver,
 * then what came in against what is owed. A place given up with nothing received stays 'open'.
 */
export function paymentStatusOf(p: PaymentAmounts): PaymentStatus {
  if (refundDueCents(p) > 0) return 'refund_due';
  if (p.refundedCents > 0) return 'refunded';
  if (p.waived) return 'waived';
  const owed = owedCents(p);
  if (p.paidCents >= owed && p.paidCents > 0) return 'paid';
  return p.paidCents > 0 ? 'partial' : 'open';
}

/** Whether the fee no longer stands in the way of taking part: received in full, or waived. */
export const feeSettled = (p: Pick<PaymentAmounts, 'amountCents' | 'paidCents' | 'waived'>): boolean =>
  p.waived || p.paidCents >= p.amountCents;

/**
 * The one rule for taking part, in SQL: a car whose invitation `i` has a fee takes part only once it
 * is paid (by transfer or at the gate) or waived. Without a fee (never set, or removed since) nothing
 * changes. Used with the
 * invitation's alias by the public list, the quartett, the signs, the gate list and admission.
 */
export const feeSettledSql = (invitation: string): string =>
  `not exists (select 1 from payment fee_p join edition fee_e on fee_e.id = fee_p.edition_id and fee_e.fee is not null
                where fee_p.invitation_id = ${invitation}.id and fee_p.waived_at is null and fee_p.paid_cents < fee_p.amount_cents)`;

const DAY_MS = 24 * 3600 * 1000;

/** The payment deadline: the invitation's confirm-by deadline plus the edition's days to pay; none without one. */
export function paymentDueAt(confirmBy: Date | null, fee: Pick<EditionFee, 'payWithinDays'>): Date | null {
  return confirmBy ? new Date(confirmBy.getTime() + fee.payWithinDays * DAY_MS) : null;
}

/** The reminder goes this many days before the payment deadline. */
export const PAYMENT_REMINDER_DAYS = 3;

/**
 * What the club keeps of a car whose place is given up at `at`: under the refund rule a decline on
 * or before `fullUntil` (that day, in the venue's time zone, included) gets everything back, a later
 * one all but `keepCents`; a lapse or a revocation keeps nothing (the car never had its chance to
 * take part, or the club took it away).
 */
export function keptOnRelease(
  fee: Pick<EditionFee, 'refund' | 'amountCents'> | null,
  reason: 'declined' | 'lapsed' | 'revoked',
  at: Date,
  amountCents: number,
): number {
  if (!fee || reason !== 'declined') return 0;
  const { fullUntil, keepCents } = fee.refund;
  if (fullUntil && venueDay(at) <= fullUntil) return 0;
  return Math.min(keepCents, amountCents);
}

/** 'YYYY-MM-DD' of a moment in Europe/Berlin. */
function venueDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(at);
}

/** The same rule for a vehicle `v` (through its invitation, where it has one). */
export const vehicleFeeSettledSql = (vehicle: string): string =>
  `not exists (select 1 from invitation fee_i join payment fee_p on fee_p.invitation_id = fee_i.id
                join edition fee_e on fee_e.id = fee_p.edition_id and fee_e.fee is not null
                where fee_i.vehicle_id = ${vehicle}.id and fee_p.waived_at is null and fee_p.paid_cents < fee_p.amount_cents)`;

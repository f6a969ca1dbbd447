/** The state of a car's fee, with German labels and badge colours. */

/**
 * open: nothing received yet · partial: less than the fee received · paid: the fee received (by
 * transfer or at the gate) · waived: an admin let the car off the fee · refund_due: money to be paid
 * back (a decline after paying, within the refund rule) · refunded: paid back.
 */
export const PAYMENT_STATUSES = ['open', 'partial', 'paid', 'waived', 'refund_due', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export const PAYMENT_STATUS_LABELS: Readonly<Record<PaymentStatus, string>> = {
  open: 'Offen',
  partial: 'Teilweise bezahlt',
  paid: 'Bezahlt',
  waived: 'Erlassen',
  refund_due: 'Erstattung fällig',
  refunded: 'Erstattet',
};

/** Tailwind classes of the payment badge (web's Tailwind sources must include shared/src). */
export const PAYMENT_STATUS_BADGE_CLASSES: Readonly<Record<PaymentStatus, string>> = {
  open: 'bg-yellow-100 text-yellow-800 border-yellow-200',
  partial: 'bg-orange-100 text-orange-800 border-orange-200',
  paid: 'bg-emerald-700 text-white border-emerald-800',
  waived: 'bg-slate-100 text-slate-700 border-slate-200',
  refund_due: 'bg-red-100 text-red-800 border-red-200',
  refunded: 'bg-blue-100 text-blue-800 border-blue-200',
};

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
}

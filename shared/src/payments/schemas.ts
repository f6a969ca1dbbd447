import * as v from 'valibot';
import { PAYMENT_MESSAGES } from './messages.js';

/** POST /api/admin/payments/{year}/entries/{id}/assign */
export const PaymentAssignSchema = v.object(
  { paymentId: v.pipe(v.string(PAYMENT_MESSAGES.unknownPayment), v.uuid(PAYMENT_MESSAGES.unknownPayment)) },
  PAYMENT_MESSAGES.unknownPayment,
);

/** POST /api/admin/payments/{year}/payments/{id}/waive */
export const PaymentWaiveSchema = v.object(
  {
    reason: v.pipe(
      v.string(PAYMENT_MESSAGES.waiveReason),
      v.trim(),
      v.minLength(10, PAYMENT_MESSAGES.waiveReason),
      v.maxLength(500, PAYMENT_MESSAGES.waiveReasonMax),
    ),
  },
  PAYMENT_MESSAGES.waiveReason,
);

/** POST /api/admin/check-in/cash: the car by check-in code or start number, and the gate's name. */
export const CashPaymentSchema = v.object(
  {
    code: v.pipe(
      v.string(PAYMENT_MESSAGES.noPayment),
      v.trim(),
      v.nonEmpty(PAYMENT_MESSAGES.noPayment),
      v.maxLength(200),
    ),
    gate: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(40)), 'Einlass'),
  },
  PAYMENT_MESSAGES.noPayment,
);

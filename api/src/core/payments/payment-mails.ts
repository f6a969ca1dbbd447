import type { EditionFee } from '@schlosstreffen/shared';
import type { Payment } from '../model/payment.entity.js';

/** What a mail about the fee shows: amount, account, reference and deadline (the GiroCode is drawn from it). */
export function paymentMailOf(payment: Payment, fee: EditionFee) {
  return {
    amountCents: payment.amountCents,
    accountHolder: fee.accountHolder,
    iban: fee.iban,
    bic: fee.bic ?? null,
    reference: payment.reference,
    dueAt: payment.dueAt?.toISOString() ?? null,
  };
}

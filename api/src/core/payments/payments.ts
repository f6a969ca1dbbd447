import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { epcQrPayload, makePaymentReference, type EditionFee } from '@schlosstreffen/shared';
import QRCode from 'qrcode';
import type { VehiclePayment } from '@schlosstreffen/shared/api';
import type { Edition } from '../model/edition.entity.js';
import { Invitation, type ReleaseReason } from '../model/invitation.entity.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { heldInvitationsWithoutPayment, vehiclesWithPayments } from './payments.queries.js';
import { Payment, PaymentBooking, type PaymentBookingKind } from '../model/payment.entity.js';
import { keptOnRelease, paymentDueAt, paymentStatusOf, type PaymentAmounts } from '../fees/participation.js';

/** The amounts of a payment row, for its status. */
export const amountsOf = (payment: Payment): PaymentAmounts => ({
  amountCents: payment.amountCents,
  paidCents: payment.paidCents,
  refundedCents: payment.refundedCents,
  keptCents: payment.keptCents ?? null,
  waived: payment.waivedAt !== null && payment.waivedAt !== undefined,
});

/** A payment as its owner's vehicle JSON carries it, with the account to pay to while something is open. */
export function vehiclePaymentOf(payment: Payment, fee: EditionFee | null): VehiclePayment {
  const status = paymentStatusOf(amountsOf(payment));
  const open = (status === 'open' || status === 'partial') && payment.keptCents === null;
  return {
    status,
    reference: payment.reference,
    amountCents: payment.amountCents,
    paidCents: payment.paidCents,
    dueAt: payment.dueAt?.toISOString() ?? null,
    payTo: open && fee ? { accountHolder: fee.accountHolder, iban: fee.iban, bic: fee.bic ?? null } : null,
  };
}

/** The payments of these invitations with their edition's fee, by invitation id, in one query. */
export async function paymentsOfInvitations(
  em: EntityManager,
  invitationIds: readonly string[],
): Promise<Map<string, VehiclePayment>> {
  if (invitationIds.length === 0) return new Map();
  const rows = await em.find(Payment, { invitation: { $in: [...invitationIds] } }, { populate: ['edition'] });
  return new Map(
    rows.flatMap((row) =>
      row.invitation ? [[row.invitation.id, vehiclePaymentOf(row, row.edition.fee ?? null)]] : [],
    ),
  );
}

/**
 * The GiroCode (EPC069-12 version 002, UTF-8, the open amount filled in, the reference as the
 * remittance text) of a vehicle's fee while something is open, as SVG; null otherwise.
 */
export async function giroCodeSvgOf(em: EntityManager, vehicleId: string): Promise<string | null> {
  const payment = await em.findOne(
    Payment,
    { invitation: { vehicle: vehicleId } },
    { populate: ['edition'] },
  );
  const fee = payment?.edition.fee;
  if (!payment || !fee) return null;
  const view = vehiclePaymentOf(payment, fee);
  if (!view.payTo) return null;
  const payload = epcQrPayload({
    name: fee.accountHolder,
    iban: fee.iban,
    bic: fee.bic ?? null,
    amountCents: payment.amountCents - payment.paidCents,
    remittance: payment.reference,
  });
  return QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
}

/** A reference no payment has (a new one on the rare clash of 31⁵ per year). */
async function freshReference(em: EntityManager, year: number): Promise<string> {
  for (;;) {
    const reference = makePaymentReference(year);
    if (!(await em.count(Payment, { reference }))) return reference;
  }
}

/**
 * Gives an invitation of an edition with a fee its payment, in the caller's transaction: a new one
 * with a fresh reference, or, for an invitation given again (moving up after a release), the one it
 * had, held again (what was paid counts) with its new deadline. Without a fee nothing happens.
 */
export async function openPayment(
  em: EntityManager,
  invitation: Invitation,
  fee: EditionFee | null | undefined,
  year: number,
): Promise<Payment | null> {
  if (!fee) return null;
  const existing = await em.findOne(Payment, { invitation: invitation.id });
  const dueAt = paymentDueAt(invitation.confirmBy ?? null, fee);
  if (existing) {
    Object.assign(existing, { keptCents: null, dueAt, remindedAt: null });
    return existing;
  }
  return em.create(Payment, {
    edition: invitation.edition.id,
    invitation,
    reference: await freshReference(em, year),
    amountCents: fee.amountCents,
    dueAt,
  });
}

/**
 * A place given up: what the club keeps is fixed by the refund rule at this moment (a decline), or
 * nothing (a lapse, a revocation); everything received beyond it becomes a refund due.
 */
export async function releasePayment(
  em: EntityManager,
  invitationId: string,
  fee: EditionFee | null | undefined,
  reason: ReleaseReason,
  at: Date,
): Promise<void> {
  const payment = await em.findOne(Payment, { invitation: invitationId });
  if (!payment || payment.keptCents !== null) return;
  payment.keptCents = keptOnRelease(fee ?? null, reason, at, payment.amountCents);
}

export interface BookingSource {
  kind: PaymentBookingKind;
  bankEntryId?: string | null;
  bookedById?: string | null;
  note?: string | null;
}

/**
 * Books money received on a payment, locked, in the caller's transaction: the booking row traced to
 * its source and the payment's sum in the same change. Returns the amounts before and after.
 */
export async function bookCredit(
  em: EntityManager,
  paymentId: string,
  amountCents: number,
  source: BookingSource,
): Promise<{ before: PaymentAmounts; after: PaymentAmounts; payment: Payment }> {
  const payment = await em.findOneOrFail(
    Payment,
    { id: paymentId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  const before = amountsOf(payment);
  em.create(PaymentBooking, {
    edition: payment.edition.id,
    payment,
    kind: source.kind,
    amountCents,
    bankEntry: source.bankEntryId ?? null,
    bookedBy: source.bookedById ?? null,
    note: source.note ?? null,
  });
  payment.paidCents += amountCents;
  return { before, after: amountsOf(payment), payment };
}

/**
 * A fee set on an edition whose places are held already: every held invitation without a payment
 * gets one, its deadline the confirm-by deadline (or `at`, if that passed) plus the days to pay.
 * The cars leave the public list until paid. Returns how many were opened.
 */
export async function openMissingPayments(em: EntityManager, edition: Edition, at: Date): Promise<number> {
  const fee = edition.fee;
  if (!fee) {
    // Removed: every car waiting only for its fee takes part now.
    await refreshPublicVehicles(em, await vehiclesWithPayments(em, edition.id));
    return 0;
  }
  const held = await heldInvitationsWithoutPayment(em, edition.id);
  for (const row of held) {
    const invitation = await em.findOneOrFail(Invitation, { id: row.invitation_id });
    const confirmBy = invitation.confirmBy
      ? new Date(Math.max(invitation.confirmBy.getTime(), at.getTime()))
      : null;
    const payment = await openPayment(em, invitation, fee, edition.year);
    if (payment) payment.dueAt = paymentDueAt(confirmBy, fee);
  }
  await em.flush();
  if (held.length)
    await refreshPublicVehicles(
      em,
      held.map((row) => row.vehicle_id),
    );
  return held.length;
}

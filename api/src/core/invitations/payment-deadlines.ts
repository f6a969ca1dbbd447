import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { formatEuro, PLACES_MESSAGES, venueDateTime } from '@schlosstreffen/shared';
import { feeSettled, PAYMENT_REMINDER_DAYS } from '../fees/participation.js';
import { Invitation } from '../model/invitation.entity.js';
import { Payment } from '../model/payment.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { queuePaymentMail } from '../payments/payment-notices.js';
import { amountsOf } from '../payments/payments.js';
import { paymentRemindersDue, paymentsLapsed } from '../payments/payments.queries.js';
import { refreshPublicVehicles } from '../public-list/public-vehicle.projection.js';
import { recordStatusChange } from '../status-log/status-log.js';
import { holdsPlace, releasePlace, SYSTEM_ACTOR, type PlacesOptions } from './places.js';

/**
 * The fee's deadline, run by the scheduler: a reminder 3 days before it while the fee is open, and
 * at it an unpaid car is released like an unconfirmed one (status log row, mail; the caller moves
 * the waitlist). An invitation without a confirm-by deadline has no payment deadline.
 */

/** Reminder mails for open fees whose moment has come, once per payment. Returns how many were queued. */
export async function remindPaymentsDue(
  em: EntityManager,
  options: PlacesOptions,
  asOf: Date,
): Promise<number> {
  const rows = await paymentRemindersDue(em, options.event.edition.id, asOf, PAYMENT_REMINDER_DAYS);
  let sent = 0;
  for (const row of rows) {
    const queued = await em.fork().transactional(async (tx) => {
      const payment = await tx.findOne(
        Payment,
        { id: row.payment_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!payment || payment.remindedAt || feeSettled(amountsOf(payment)) || !payment.dueAt) return false;
      if (payment.dueAt <= asOf) return false;
      payment.remindedAt = asOf;
      return queuePaymentMail(tx, payment, 'payment-reminder', options.publicUrl);
    });
    if (queued) sent += 1;
  }
  return sent;
}

/**
 * Cars whose fee is still open at its deadline lose their place: the vehicle becomes rejected by the
 * system with the reason in the status log, its place is freed (its start number stays taken), what
 * was paid becomes a refund due, and a mail says so. Returns the released vehicles' ids.
 */
export async function releaseUnpaidDue(
  em: EntityManager,
  options: PlacesOptions,
  asOf: Date,
): Promise<string[]> {
  const rows = await paymentsLapsed(em, options.event.edition.id, asOf);
  const released: string[] = [];
  for (const row of rows) {
    const done = await em.fork().transactional(async (tx) => {
      const vehicle = await tx.findOne(
        Vehicle,
        { id: row.vehicle_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const payment = await tx.findOne(
        Payment,
        { id: row.payment_id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const invitation = await tx.findOne(Invitation, { id: row.invitation_id });
      if (!vehicle || !payment || !invitation || invitation.releasedAt || !holdsPlace(vehicle.status))
        return false;
      if (!payment.dueAt || payment.dueAt > asOf || feeSettled(amountsOf(payment))) return false;
      recordStatusChange(tx, vehicle, SYSTEM_ACTOR, {
        to: 'rejected',
        comment: PLACES_MESSAGES.unpaidLog(
          venueDateTime(payment.dueAt),
          invitation.startNumber,
          formatEuro(payment.amountCents - payment.paidCents),
        ),
      });
      await releasePlace(tx, vehicle, 'lapsed', asOf, { moveUp: false });
      await queuePaymentMail(tx, payment, 'payment-lapsed', options.publicUrl);
      await refreshPublicVehicles(tx, [vehicle.id]);
      return true;
    });
    if (done) released.push(row.vehicle_id);
  }
  return released;
}

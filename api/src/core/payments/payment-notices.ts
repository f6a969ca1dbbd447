import type { EntityManager } from '@mikro-orm/postgresql';
import { consentWithdrawn } from '../model/consent-state.js';
import { Edition } from '../model/edition.entity.js';
import { Invitation } from '../model/invitation.entity.js';
import type { Payment } from '../model/payment.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { ownerMailProps } from '../status-log/status-effects.js';
import { paymentMailOf } from './payment-mails.js';

export type PaymentMailTemplate = 'payment-reminder' | 'payment-partial' | 'payment-lapsed';

/**
 * Queues a mail about a car's fee to its owner, in the caller's transaction: the reminder and the
 * rest still open carry amount, account, reference and deadline; the lapse names the deadline. No
 * mail once the invitation is gone or the owner withdrew the consent to be contacted.
 */
export async function queuePaymentMail(
  em: EntityManager,
  payment: Payment,
  template: PaymentMailTemplate,
  publicUrl: string,
): Promise<boolean> {
  if (!payment.invitation) return false;
  const invitation = await em.findOne(Invitation, { id: payment.invitation.id });
  if (!invitation) return false;
  const vehicle = await em.findOneOrFail(Vehicle, { id: invitation.vehicle.id });
  if (await consentWithdrawn(em, vehicle.id, 'contact')) return false;
  const owner = await em.findOneOrFail(User, { id: vehicle.user.id });
  const edition = await em.findOneOrFail(Edition, { id: payment.edition.id });
  const base = ownerMailProps(owner, vehicle, publicUrl);
  const open = Math.max(0, payment.amountCents - payment.paidCents);
  const props =
    template === 'payment-lapsed'
      ? { ...base, dueAt: (payment.dueAt ?? new Date()).toISOString() }
      : edition.fee
        ? {
            ...base,
            payment: paymentMailOf(payment, edition.fee),
            openCents: open,
            ...(template === 'payment-partial' ? { paidCents: payment.paidCents } : {}),
          }
        : null;
  if (!props) return false;
  enqueue(em, 'email.send', { template, to: owner.email, props, vehicleId: vehicle.id });
  return true;
}

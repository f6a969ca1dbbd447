import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { applicationMailName, MAIL_FATE_MESSAGES, type MailState } from '@schlosstreffen/shared';
import type { VehicleMail } from '@schlosstreffen/shared/api';
import { conflict, notFound } from '../errors.js';
import { consentWithdrawn } from '../model/consent-state.js';
import { EmailLog } from '../model/email-log.entity.js';
import { Outbox } from '../model/outbox.entity.js';
import { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { enqueue } from '../outbox/outbox.js';
import { bounceOf } from '../emails/email-log.js';
import { authorizeStaff } from '../vehicle-policy.js';
import type { PendingAudit } from '../pending-audit.js';

/** A resend that ended like this may be asked for again; any other state counts as done or under way. */
const RESEND_AGAIN = new Set<string>(['refused', 'held', 'failed']);

/**
 * The mails sent about an application, newest first, with their fate. `resent` says that
 * 'Erneut senden' was asked for and its resend is under way or went out.
 */
export async function vehicleMails(
  em: EntityManager,
  user: User | undefined,
  vehicleId: string,
): Promise<VehicleMail[]> {
  const vehicle = await em.findOne(Vehicle, { id: vehicleId });
  if (!vehicle) throw notFound(MAIL_FATE_MESSAGES.mailNotFound);
  await authorizeStaff(em, user, 'readInternal', vehicle);
  const logs = await em.find(EmailLog, { vehicleId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  const resendIds = logs.flatMap((log) => (log.resendJobId ? [log.resendJobId] : []));
  const resends = resendIds.length ? await em.find(EmailLog, { jobId: { $in: resendIds } }) : [];
  const resendState = new Map(resends.map((log) => [log.jobId, log.status]));
  return logs.map((log) => {
    const resend = log.resendJobId ? (resendState.get(log.resendJobId) ?? 'pending') : null;
    return {
      id: log.id,
      template: log.template,
      name: applicationMailName(log.template),
      subject: log.subject ?? null,
      recipient: log.recipient,
      state: log.status as MailState,
      attempts: log.attempts,
      error: log.status === 'sent' || log.status === 'pending' ? null : (log.lastError ?? null),
      createdAt: log.createdAt.toISOString(),
      sentAt: log.sentAt?.toISOString() ?? null,
      resent: resend !== null && !RESEND_AGAIN.has(resend),
      templateVersion: log.templateVersion ?? null,
    };
  });
}

/**
 * 'Erneut senden': queues the mail again, through the outbox, to the owner's current address. Once
 * per mail: while its resend is under way or went out, asking again queues nothing (a resend that
 * was refused or held may be asked for again). Refused while the owner's address is marked as
 * bounced (they correct it first), is not confirmed, or the owner withdrew the consent to be
 * contacted. Returns the outbox row id, to wake the relay after commit.
 */
export async function resendVehicleMail(
  em: EntityManager,
  user: User | undefined,
  vehicleId: string,
  mailId: string,
  audit?: PendingAudit,
): Promise<string> {
  return em.fork().transactional(async (tx) => {
    const vehicle = await tx.findOne(Vehicle, vehicleId);
    if (!vehicle) throw notFound(MAIL_FATE_MESSAGES.mailNotFound);
    await authorizeStaff(tx, user, 'resendMail', vehicle);
    // Locked: a second click waits for the first and then sees its resend.
    const log = await tx.findOne(
      EmailLog,
      { id: mailId, vehicleId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!log) throw notFound(MAIL_FATE_MESSAGES.mailNotFound);
    if (log.resendJobId) {
      const resend = await tx.findOne(EmailLog, { jobId: log.resendJobId });
      if (!resend || !RESEND_AGAIN.has(resend.status)) throw conflict(MAIL_FATE_MESSAGES.resendPending);
    }
    const source = await tx.findOne(Outbox, { id: log.jobId, job: 'email.send' });
    if (!source) throw conflict(MAIL_FATE_MESSAGES.resendGone);
    const owner = await tx.findOneOrFail(User, vehicle.user.id);
    if (!owner.emailVerified) throw conflict(MAIL_FATE_MESSAGES.resendUnconfirmed);
    if (await bounceOf(tx, owner.email)) throw conflict(MAIL_FATE_MESSAGES.resendBounced(owner.email));
    if (await consentWithdrawn(tx, vehicleId, 'contact')) throw conflict(MAIL_FATE_MESSAGES.resendNoContact);
    const payload = source.payload as { template: never; props: Record<string, unknown>; sealed?: string };
    const row = enqueue(tx, 'email.send', {
      template: payload.template,
      to: owner.email,
      props: payload.props,
      ...(payload.sealed ? { sealed: payload.sealed } : {}),
      vehicleId,
    });
    log.resendJobId = row.id;
    audit?.record(tx);
    return row.id;
  });
}

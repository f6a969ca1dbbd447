import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../model/user.entity.js';
import { EmailLog } from '../model/email-log.entity.js';
import { MailBounce } from '../model/mail-bounce.entity.js';
import type { PermanentRefusal } from './smtp-refusal.js';

/** A job whose mail found its fate (accepted, refused for good, held back) sends nothing again. */
const SETTLED = new Set<string>(['sent', 'refused', 'held']);

/**
 * The email log makes a mail job send at most once: one row per job id. `beginEmail` returns the
 * row to send under, or null when that job's mail already went out (a retry or a re-delivery).
 */
export async function beginEmail(
  em: EntityManager,
  jobId: string,
  mail: { recipient: string; template: string; vehicleId?: string | null },
): Promise<EmailLog | null> {
  let log = await em.findOne(EmailLog, { jobId });
  if (log && SETTLED.has(log.status)) return null;
  log ??= em.create(EmailLog, {
    jobId,
    recipient: mail.recipient,
    template: mail.template,
    vehicleId: mail.vehicleId ?? null,
  });
  log.attempts += 1;
  await em.flush();
  return log;
}

export async function emailSent(
  em: EntityManager,
  log: EmailLog,
  sent: { subject: string; messageId: string },
): Promise<void> {
  em.assign(log, { status: 'sent', ...sent, sentAt: new Date(), lastError: null });
  await em.flush();
}

/**
 * Rendered: which edition's text in which version (0: the default; null: a draft's test). Written
 * with the send's outcome (`emailSent`, `emailDeferred`, `emailRefused`), in the same update.
 */
export function emailRendered(
  log: EmailLog,
  text: { version: number | null; editionId: string | null },
): void {
  log.templateVersion = text.version;
  log.templateEditionId = text.editionId;
}

/** The mail could not be rendered: it never will be. */
export async function emailFailed(em: EntityManager, log: EmailLog, error: unknown): Promise<void> {
  log.status = 'failed';
  log.lastError = errorText(error);
  await em.flush();
}

/**
 * The server answered 4xx or could not be reached: the job is retried; after its last attempt the
 * mail counts as failed (with the last answer).
 */
export async function emailDeferred(
  em: EntityManager,
  log: EmailLog,
  mail: { subject: string; error: unknown; lastAttempt?: boolean },
): Promise<void> {
  em.assign(log, {
    status: mail.lastAttempt ? 'failed' : 'deferred',
    subject: mail.subject,
    lastError: errorText(mail.error),
  });
  await em.flush();
}

/**
 * The server refused the mail for good: logged with its answer ('abgelehnt'). Only a refusal of the
 * recipient marks the address, so later mails to it are held back instead of being refused again; a
 * refusal of this message (content, size, policy) leaves the address as it is.
 */
export async function emailRefused(
  em: EntityManager,
  log: EmailLog,
  mail: { subject: string; refusal: PermanentRefusal },
): Promise<void> {
  em.assign(log, { status: 'refused', subject: mail.subject, lastError: mail.refusal.answer });
  if (mail.refusal.recipient) {
    await em.upsert(MailBounce, {
      address: log.recipient.toLowerCase(),
      reason: mail.refusal.answer,
      bouncedAt: new Date(),
    });
  }
  await em.flush();
}

/** Not sent: the address bounced before (the reason is the server's answer then). */
export async function emailHeld(em: EntityManager, log: EmailLog, bounce: MailBounce): Promise<void> {
  em.assign(log, { status: 'held', lastError: bounce.reason });
  await em.flush();
}

/** The mark of an address a server refused for good, or null. */
export function bounceOf(em: EntityManager, address: string): Promise<MailBounce | null> {
  return em.findOne(MailBounce, { address: address.toLowerCase() });
}

/**
 * Clears the marks of addresses: one confirmed by a link that reached it (mails arrive there), or
 * an address an account no longer uses.
 */
export async function clearBounces(em: EntityManager, addresses: string[]): Promise<void> {
  const lower = addresses.map((address) => address.toLowerCase());
  if (lower.length) await em.nativeDelete(MailBounce, { address: { $in: lower } });
}

const errorText = (error: unknown): string => {
  const response = (error as { response?: unknown } | null)?.response;
  if (typeof response === 'string' && response) return response.trim();
  return error instanceof Error ? error.message : String(error);
};

/**
 * Whether an account mail may go to the address: only to the confirmed address of an account.
 * Nothing reaches an address that nobody has confirmed, whatever someone typed when registering.
 */
export async function isConfirmedAccountAddress(em: EntityManager, email: string): Promise<boolean> {
  return (await em.count(User, { email: email.toLowerCase(), emailVerified: true })) > 0;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../model/user.entity.js';
import { EmailLog } from '../model/email-log.entity.js';

/**
 * The email log makes a mail job send at most once: one row per job id. `beginEmail` returns the
 * row to send under, or null when that job's mail already went out (a retry or a re-delivery).
 */
export async function beginEmail(
  em: EntityManager,
  jobId: string,
  mail: { recipient: string; template: string },
): Promise<EmailLog | null> {
  let log = await em.findOne(EmailLog, { jobId });
  if (log?.status === 'sent') return null;
  log ??= em.create(EmailLog, { jobId, recipient: mail.recipient, template: mail.template });
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

export async function emailFailed(em: EntityManager, log: EmailLog, error: unknown): Promise<void> {
  log.status = 'failed';
  log.lastError = error instanceof Error ? error.message : String(error);
  await em.flush();
}

/**
 * Whether an account mail may go to the address: only to the confirmed address of an account.
 * Nothing reaches an address that nobody has confirmed, whatever someone typed when registering.
 */
export async function isConfirmedAccountAddress(em: EntityManager, email: string): Promise<boolean> {
  return (await em.count(User, { email: email.toLowerCase(), emailVerified: true })) > 0;
}

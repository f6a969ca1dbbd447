import type { EntityManager } from '@mikro-orm/postgresql';
import {
  beginEmail,
  bounceOf,
  currentEdition,
  currentMailText,
  emailDeferred,
  emailFailed,
  emailHeld,
  emailRefused,
  emailRendered,
  emailSent,
  isConfirmedAccountAddress,
  permanentRefusal,
  unseal,
} from '@schlosstreffen/api/core';
import {
  CONFIRMED_ADDRESS_TEMPLATES,
  mailKeyOf,
  REQUESTED_MAIL_TEMPLATES,
  type EventFacts,
} from '@schlosstreffen/shared';
import { UnrecoverableError } from 'bullmq';
import type { Mailer } from '../../adapters/mailer.js';
import { renderEmail, type RenderedEmail } from '../../emails/render.js';
import type { MailSite } from '../../emails/site.js';
import type { MailFate } from '../../metrics.js';
import type { JobHandler } from '../dispatch.js';

export interface SendEmailDeps {
  em: EntityManager;
  mailer: Mailer;
  secret: string;
  event: EventFacts;
  /** The edition whose mail texts to use (the mail's vehicle's, else the job's); the current one when absent. */
  editionId?: string;
  site: MailSite;
  /** Told each send's outcome once the email log holds it (the mail counter). */
  onFate?: (fate: MailFate) => void;
}

export type EmailResult =
  | { status: 'sent'; messageId: string }
  | { status: 'skipped' }
  /** The receiving server refused it for good (not retried; a refused recipient marks the address). */
  | { status: 'refused'; answer: string; recipient: boolean }
  /** Not sent: the address bounced before. */
  | { status: 'held' }
  /** An account mail to an address that no account has confirmed: not sent, not logged. */
  | { status: 'unconfirmed' };

/**
 * Sends one email job at most once: the email log row keyed by the job id records the send, so a
 * retried or re-delivered job whose mail already went out ends without sending again. A mail that
 * cannot be rendered fails for good. A send the server defers (4xx) or that is lost is retried; one it
 * refuses for good (5xx to RCPT TO or DATA) is logged with its answer, and marks the address when the
 * server refused the recipient (smtp-refusal.ts); later mails to a marked address are held back
 * (logged, not sent). The log names the version of the edition's text the mail was rendered with.
 */
export function createSendEmail(deps: SendEmailDeps): JobHandler<'email.send'> {
  return async (payload, job): Promise<EmailResult> => {
    const em = deps.em.fork();
    if (
      CONFIRMED_ADDRESS_TEMPLATES.has(payload.template) &&
      !(await isConfirmedAccountAddress(em, payload.to))
    ) {
      return { status: 'unconfirmed' };
    }
    const log = await beginEmail(em, job.id, {
      recipient: payload.to,
      template: payload.template,
      vehicleId: payload.vehicleId,
    });
    if (!log) return { status: 'skipped' };
    const bounce = REQUESTED_MAIL_TEMPLATES.has(payload.template) ? null : await bounceOf(em, payload.to);
    if (bounce) {
      await emailHeld(em, log, bounce);
      deps.onFate?.('held');
      return { status: 'held' };
    }

    let rendered: RenderedEmail;
    try {
      const secrets = payload.sealed ? unseal<Record<string, unknown>>(deps.secret, payload.sealed) : {};
      // The edition's text as it is when the mail goes out; a test mail brings its draft.
      const editionId = deps.editionId ?? (await currentEdition(em, new Date())).id;
      const text = payload.draft
        ? { ...payload.draft, version: null }
        : await currentMailText(em, editionId, mailKeyOf(payload.template, payload.props));
      rendered = await renderEmail(
        payload.template,
        { ...payload.props, ...secrets },
        deps.event,
        deps.site,
        text,
      );
      emailRendered(log, { version: text.version, editionId });
    } catch (error) {
      await emailFailed(em, log, error);
      deps.onFate?.('failed');
      throw new UnrecoverableError(`email ${job.id} cannot be rendered: ${(error as Error).message}`);
    }

    try {
      const { messageId } = await deps.mailer.send({
        to: payload.to,
        messageId: `<${job.id}@schlosstreffen>`,
        ...rendered,
      });
      await emailSent(em, log, { subject: rendered.subject, messageId });
      deps.onFate?.('sent');
      return { status: 'sent', messageId };
    } catch (error) {
      const refusal = permanentRefusal(error);
      if (refusal) {
        await emailRefused(em, log, { subject: rendered.subject, refusal });
        deps.onFate?.('refused');
        return { status: 'refused', answer: refusal.answer, recipient: refusal.recipient };
      }
      await emailDeferred(em, log, { subject: rendered.subject, error, lastAttempt: job.lastAttempt });
      // Deferred after its last attempt: the email log counts it as failed.
      if (job.lastAttempt) deps.onFate?.('failed');
      throw error;
    }
  };
}

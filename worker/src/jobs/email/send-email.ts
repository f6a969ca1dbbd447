import type { EntityManager } from '@mikro-orm/postgresql';
import {
  beginEmail,
  emailFailed,
  emailSent,
  isConfirmedAccountAddress,
  unseal,
} from '@schlosstreffen/api/core';
import { CONFIRMED_ADDRESS_TEMPLATES, type EventFacts } from '@schlosstreffen/shared';
import { UnrecoverableError } from 'bullmq';
import type { Mailer } from '../../adapters/mailer.js';
import { renderEmail, type RenderedEmail } from '../../emails/render.js';
import type { MailSite } from '../../emails/site.js';
import type { JobHandler } from '../dispatch.js';

export interface SendEmailDeps {
  em: EntityManager;
  mailer: Mailer;
  secret: string;
  event: EventFacts;
  site: MailSite;
}

export type EmailResult =
  | { status: 'sent'; messageId: string }
  | { status: 'skipped' }
  /** An account mail to an address that no account has confirmed: not sent, not logged. */
  | { status: 'unconfirmed' };

/**
 * Sends one email job at most once: the email log row keyed by the job id records the send, so a
 * retried or re-delivered job whose mail already went out ends without sending again. A mail that
 * cannot be rendered fails for good; a refused or lost send is retried.
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
    const log = await beginEmail(em, job.id, { recipient: payload.to, template: payload.template });
    if (!log) return { status: 'skipped' };

    let rendered: RenderedEmail;
    try {
      const secrets = payload.sealed ? unseal<Record<string, unknown>>(deps.secret, payload.sealed) : {};
      rendered = await renderEmail(payload.template, { ...payload.props, ...secrets }, deps.event, deps.site);
    } catch (error) {
      await emailFailed(em, log, error);
      throw new UnrecoverableError(`email ${job.id} cannot be rendered: ${(error as Error).message}`);
    }

    try {
      const { messageId } = await deps.mailer.send({
        to: payload.to,
        messageId: `<${job.id}@schlosstreffen>`,
        ...rendered,
      });
      await emailSent(em, log, { subject: rendered.subject, messageId });
      return { status: 'sent', messageId };
    } catch (error) {
      await emailFailed(em, log, error);
      throw error;
    }
  };
}

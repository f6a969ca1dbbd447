import { EmailLog, unseal } from '@schlosstreffen/api/db';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EmailJobSchema } from '@schlosstreffen/shared';
import { UnrecoverableError, type Job } from 'bullmq';
import * as v from 'valibot';
import type { Mailer } from '../adapters/mailer.js';
import type { EventFacts } from '../emails/event-facts.js';
import { renderEmail } from '../emails/render.js';

export interface EmailProcessorDeps {
  em: EntityManager;
  mailer: Mailer;
  secret: string;
  event: EventFacts;
}

export type EmailResult = { status: 'sent'; messageId: string } | { status: 'skipped' };

/**
 * Sends one email job at most once: the email log row keyed by the job id records the send, so a
 * retried or re-delivered job whose mail already went out ends without sending again.
 */
export function createEmailProcessor(deps: EmailProcessorDeps) {
  return async (job: Job): Promise<EmailResult> => {
    const jobId = job.id;
    if (!jobId) throw new UnrecoverableError('email job without id');
    const parsed = v.safeParse(EmailJobSchema, job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid email job: ${parsed.issues[0]?.message}`);
    const payload = parsed.output;

    const em = deps.em.fork();
    let log = await em.findOne(EmailLog, { jobId });
    if (log?.status === 'sent') return { status: 'skipped' };
    log ??= em.create(EmailLog, { jobId, recipient: payload.to, template: payload.template });
    log.attempts += 1;
    await em.flush();

    const fail = async (error: unknown) => {
      log.status = 'failed';
      log.lastError = error instanceof Error ? error.message : String(error);
      await em.flush();
    };

    let rendered;
    try {
      const secrets = payload.sealed ? unseal<Record<string, unknown>>(deps.secret, payload.sealed) : {};
      rendered = await renderEmail(payload.template, { ...payload.props, ...secrets }, deps.event);
    } catch (error) {
      await fail(error);
      throw new UnrecoverableError(`email ${jobId} cannot be rendered: ${(error as Error).message}`);
    }

    try {
      const { messageId } = await deps.mailer.send({
        to: payload.to,
        messageId: `<${jobId}@schlosstreffen>`,
        ...rendered,
      });
      em.assign(log, {
        status: 'sent',
        subject: rendered.subject,
        messageId,
        sentAt: new Date(),
        lastError: null,
      });
      await em.flush();
      return { status: 'sent', messageId };
    } catch (error) {
      await fail(error);
      throw error;
    }
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  claimNextRecipient,
  currentMailText,
  finishIfDone,
  recordRecipient,
  updateForSending,
} from '@schlosstreffen/api/core';
import type { EventFacts } from '@schlosstreffen/shared';
import type { Mailer } from '../../adapters/mailer.js';
import { renderEmail } from '../../emails/render.js';
import type { MailSite } from '../../emails/site.js';
import type { MailFate } from '../../metrics.js';
import type { JobHandler } from '../dispatch.js';

export interface SendUpdateDeps {
  em: EntityManager;
  mailer: Mailer;
  secret: string;
  event: EventFacts;
  site: MailSite;
  /** Mails per second at most (VISITOR_UPDATE_RATE). */
  ratePerSecond: number;
  /** Told each send's outcome: sent, or failed once its tries are used up (the mail counter). */
  onFate?: (fate: MailFate) => void;
}

/**
 * Sends an update to its recipients, one at a time at the configured rate. Each recipient's state
 * is committed before ('sending') and after ('sent') its mail, so a run that dies is resumed by the
 * next one (BullMQ re-delivers the job) where it stopped: sent recipients are skipped, and only one
 * whose mail was in flight when the process died can get it again, under the same Message-ID. A
 * visitor who unsubscribed meanwhile gets nothing and is counted as such; a failed send is tried
 * again until MAX_SEND_ATTEMPTS.
 */
export function createSendUpdate(deps: SendUpdateDeps): JobHandler<'visitor-update.send'> {
  return async ({ updateId }, job) => {
    const runStartedAt = new Date();
    const update = await updateForSending(deps.em, updateId);
    if (!update) return { status: 'gone' };
    // The edition's frame of an update (greeting, unsubscribe note) as it is when the run starts.
    const text = await currentMailText(deps.em.fork(), update.editionId, 'visitor-update');
    const gap = 1000 / Math.max(deps.ratePerSecond, 0.01);
    let next = Date.now();
    let sentNow = 0;
    for (;;) {
      const recipient = await claimNextRecipient(deps.em, updateId, runStartedAt, {
        publicUrl: deps.site.publicUrl,
        secret: deps.secret,
      });
      if (!recipient) break;
      if (!recipient.visitor) continue;
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
      next = Math.max(next + gap, Date.now());
      const { visitor } = recipient;
      try {
        const mail = await renderEmail(
          'visitor-update',
          {
            firstName: visitor.firstName,
            subject: update.subject,
            body: update.body,
            unsubscribeUrl: visitor.unsubscribeUrl,
            oneClickUrl: visitor.oneClickUrl,
          },
          deps.event,
          deps.site,
          text,
        );
        await deps.mailer.send({
          to: visitor.email,
          messageId: `<update-${updateId}-${recipient.id}@schlosstreffen>`,
          ...mail,
        });
        await recordRecipient(deps.em, recipient.id, { state: 'sent' });
        deps.onFate?.('sent');
        sentNow += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const state = await recordRecipient(deps.em, recipient.id, { state: 'failed', error: message });
        if (state === 'failed') deps.onFate?.('failed');
      }
      if (sentNow % 10 === 0) {
        const counts = await finishIfDone(deps.em, updateId);
        const total = counts.pending + counts.sent + counts.failed + counts.unsubscribed;
        await job.updateProgress(total ? Math.round(((total - counts.pending) / total) * 100) : 100);
      }
    }
    const counts = await finishIfDone(deps.em, updateId);
    await job.updateProgress(100);
    return { status: counts.pending ? 'open' : 'sent', sentNow, ...counts };
  };
}

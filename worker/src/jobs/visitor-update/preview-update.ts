import type { EntityManager } from '@mikro-orm/postgresql';
import { currentMailText, recordPreview, updateForSending } from '@schlosstreffen/api/core';
import type { EventFacts } from '@schlosstreffen/shared';
import { renderEmail } from '../../emails/render.js';
import type { MailSite } from '../../emails/site.js';
import type { JobHandler } from '../dispatch.js';

export interface PreviewUpdateDeps {
  em: EntityManager;
  event: EventFacts;
  site: MailSite;
}

/** Renders a draft with the real mail template for an example visitor; a newer revision wins. */
export function createPreviewUpdate(deps: PreviewUpdateDeps): JobHandler<'visitor-update.preview'> {
  return async ({ updateId, revision }) => {
    const update = await updateForSending(deps.em, updateId);
    if (!update) return { status: 'gone' };
    const example = `${deps.site.publicUrl}/besucher/abmelden?token=vorschau`;
    const mail = await renderEmail(
      'visitor-update',
      {
        firstName: 'Max',
        subject: update.subject,
        body: update.body,
        unsubscribeUrl: example,
        oneClickUrl: `${deps.site.publicUrl}/api/visitor-registrations/unsubscribe?token=vorschau`,
      },
      deps.event,
      deps.site,
      await currentMailText(deps.em.fork(), update.editionId, 'visitor-update'),
    );
    const stored = await recordPreview(deps.em, updateId, revision, mail.html);
    return { status: stored ? 'stored' : 'outdated', subject: mail.subject };
  };
}

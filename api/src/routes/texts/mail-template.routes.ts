import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  MAIL_TEMPLATE_MESSAGES,
  MailRestoreInputSchema,
  MailTestInputSchema,
  MailTextInputSchema,
} from '@schlosstreffen/shared';
import type {
  MailSampleView,
  MailTemplateList,
  MailTemplateView,
  ServerMessage,
} from '@schlosstreffen/shared/api';
import type { EventSource } from '../../core/editions/edition-events.js';
import {
  mailSample,
  mailTemplateList,
  mailTemplateView,
  queueTestMail,
  saveMailTemplate,
} from '../../core/texts/mail-templates.js';
import { currentUser, requestNow, requireRole, type AppState } from '../../http/context.js';
import { editionOfRequest } from '../../http/edition.js';
import { uuidParam, validate } from '../../http/validate.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear } from '../../http/audited.js';

export interface MailTemplateRouteDeps {
  em: EntityManager;
  events: EventSource;
  publicUrl: string;
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
}

/** 'E-Mail-Vorlagen': an edition's mail texts, their versions, preview data and a test mail (admins). */
export function mailTemplateRoutes({
  em,
  events,
  publicUrl,
  onOutbox,
}: MailTemplateRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');

  router.get('/admin/mail-templates', admin, async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await mailTemplateList(em.fork(), edition.id)) satisfies MailTemplateList;
  });

  router.get('/admin/mail-templates/:mail', admin, async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await mailTemplateView(em.fork(), edition.id, ctx.params.mail!)) satisfies MailTemplateView;
  });

  router.put(
    '/admin/mail-templates/:mail',
    admin,
    audited('mail-template.update', {
      target: editionYear,
      details: ({ request }) => ({
        from: (request.body as { baseVersion?: unknown } | undefined)?.baseVersion ?? null,
      }),
    }),
    async (ctx) => {
      const input = validate(MailTextInputSchema, ctx.request.body);
      const { edition } = await editionOfRequest(ctx, events);
      ctx.body = (await saveMailTemplate(
        em,
        edition.id,
        ctx.params.mail!,
        { text: input, baseVersion: input.baseVersion },
        currentUser(ctx).id,
        requestNow(ctx),
        auditOf(ctx),
      )) satisfies MailTemplateView;
    },
  );

  router.post(
    '/admin/mail-templates/:mail/restore',
    admin,
    audited('mail-template.restore', { target: editionYear }),
    async (ctx) => {
      const input = validate(MailRestoreInputSchema, ctx.request.body);
      const { edition } = await editionOfRequest(ctx, events);
      ctx.body = (await saveMailTemplate(
        em,
        edition.id,
        ctx.params.mail!,
        { text: { subject: '', body: '' }, baseVersion: input.baseVersion, restore: true },
        currentUser(ctx).id,
        requestNow(ctx),
        auditOf(ctx),
      )) satisfies MailTemplateView;
    },
  );

  // One application's data fills the preview: a single record, read by an admin.
  router.get('/admin/mail-templates/:mail/sample', admin, async (ctx) => {
    const event = await editionOfRequest(ctx, events);
    const raw = typeof ctx.query.fahrzeug === 'string' && ctx.query.fahrzeug ? ctx.query.fahrzeug : null;
    const vehicleId = raw === null ? null : uuidParam(raw, MAIL_TEMPLATE_MESSAGES.vehicle);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await mailSample(
      em.fork(),
      { ...event, id: event.edition.id },
      ctx.params.mail!,
      vehicleId,
      publicUrl,
    )) satisfies MailSampleView;
  });

  router.post('/admin/mail-templates/:mail/test', admin, async (ctx) => {
    const input = validate(MailTestInputSchema, ctx.request.body);
    const event = await editionOfRequest(ctx, events);
    const user = currentUser(ctx);
    await queueTestMail(
      em.fork(),
      user,
      { id: event.edition.id, start: event.start },
      ctx.params.mail!,
      input,
      publicUrl,
    );
    onOutbox?.();
    ctx.status = 202;
    ctx.body = { message: MAIL_TEMPLATE_MESSAGES.testQueued(user.email) } satisfies ServerMessage;
  });

  return router;
}

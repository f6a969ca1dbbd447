import type Router from '@koa/router';
import type { EventSource } from '../../core/editions/edition-events.js';
import { editionOfRequest } from '../../http/edition.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  VISITOR_UPDATE_MESSAGES,
  VISITOR_UPDATE_STATUS_LABELS,
  VisitorUpdateDraftSchema,
} from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import type { ServerMessage } from '@schlosstreffen/shared/api';
import {
  currentRecipientCount,
  type VisitorUpdateService,
  type VisitorUpdateView,
} from '../../core/visitor-updates/visitor-updates.js';
import { notFound } from '../../core/errors.js';
import { currentUser, requireRole, type AppContext, type AppState } from '../../http/context.js';
import { uuidParam, validate } from '../../http/validate.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, param } from '../../http/audited.js';

const updateId = (ctx: AppContext) => uuidParam(ctx.params.id, VISITOR_UPDATE_MESSAGES.notFound);

export function presentVisitorUpdate({ update, counts }: VisitorUpdateView): Api.VisitorUpdate {
  const total = counts.pending + counts.sent + counts.failed + counts.unsubscribed;
  return {
    id: update.id,
    subject: update.subject,
    body: update.body,
    status: update.status as Api.VisitorUpdate['status'],
    statusLabel: VISITOR_UPDATE_STATUS_LABELS[update.status as Api.VisitorUpdate['status']],
    revision: update.revision,
    previewReady: update.previewRevision === update.revision && update.previewHtml !== null,
    createdAt: update.createdAt.toISOString(),
    startedAt: update.startedAt?.toISOString() ?? null,
    finishedAt: update.finishedAt?.toISOString() ?? null,
    total: update.total,
    counts,
    progress: total ? Math.round(((total - counts.pending) / total) * 100) : 0,
  };
}

/** 'Besucher-Updates' (admins only): drafts with preview, a test to oneself, sending and history. */
export function visitorUpdateRoutes({
  em,
  updates,
  events,
}: {
  em: EntityManager;
  updates: VisitorUpdateService;
  /** The updates of one edition at a time (`?edition=`, the current one by default). */
  events: EventSource;
}): Router<AppState> {
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');

  router.get('/admin/visitor-updates', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { edition } = await editionOfRequest(ctx, events);
    ctx.body = {
      updates: (await updates.list(edition.id)).map(presentVisitorUpdate),
      recipients: await currentRecipientCount(em, edition.id),
    } satisfies Api.VisitorUpdateList;
  });

  router.post('/admin/visitor-updates', admin, audited('visitor_updates.create'), async (ctx) => {
    const draft = validate(VisitorUpdateDraftSchema, ctx.request.body);
    const { edition } = await editionOfRequest(ctx, events);
    const created = await updates.create(currentUser(ctx), draft, edition.id, auditOf(ctx));
    ctx.status = 201;
    ctx.body = presentVisitorUpdate(await updates.get(created.id));
  });

  router.get('/admin/visitor-updates/:id', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentVisitorUpdate(await updates.get(updateId(ctx)));
  });

  // The rendered mail as its own document, for a sandboxed frame: the mail's inline styles are
  // allowed here only, nothing runs, and only our own pages may frame it.
  router.get('/admin/visitor-updates/:id/preview', admin, async (ctx) => {
    const { update } = await updates.get(updateId(ctx));
    if (update.previewRevision !== update.revision || !update.previewHtml) {
      throw notFound(VISITOR_UPDATE_MESSAGES.previewPending);
    }
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox",
    );
    ctx.set('X-Frame-Options', 'SAMEORIGIN');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = update.previewHtml;
  });

  router.patch(
    '/admin/visitor-updates/:id',
    admin,
    audited('visitor_updates.update', { target: param('id') }),
    async (ctx) => {
      const id = updateId(ctx);
      const draft = validate(VisitorUpdateDraftSchema, ctx.request.body);
      await updates.edit(id, draft, auditOf(ctx));
      ctx.body = presentVisitorUpdate(await updates.get(id));
    },
  );

  router.post('/admin/visitor-updates/:id/test', admin, async (ctx) => {
    await updates.sendTest(updateId(ctx), currentUser(ctx));
    ctx.status = 202;
    ctx.body = { message: VISITOR_UPDATE_MESSAGES.testSent } satisfies ServerMessage;
  });

  router.post(
    '/admin/visitor-updates/:id/send',
    admin,
    audited('visitor_updates.send', { target: param('id') }),
    async (ctx) => {
      const view = await updates.start(updateId(ctx), auditOf(ctx));
      ctx.status = 202;
      ctx.body = presentVisitorUpdate(view);
    },
  );

  return router;
}

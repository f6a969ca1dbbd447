import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PublicTextsSchema } from '@schlosstreffen/shared';
import type { PublicTextsView } from '@schlosstreffen/shared/api';
import type { EventSource } from '../../core/editions/edition-events.js';
import { publicTextsView, savePublicTexts, type PublicTextsReader } from '../../core/texts/public-texts.js';
import { currentUser, requestNow, requireRole, type AppState } from '../../http/context.js';
import { editionOfRequest } from '../../http/edition.js';
import { validate } from '../../http/validate.js';
import { strictRouter } from '../../http/router.js';
import { audited, auditOf, editionYear, type AuditOptions } from '../../http/audited.js';

/** Which parts were set, and which went back to the default text (the texts are public anyway). */
const TEXTS_AUDIT: AuditOptions = {
  target: editionYear,
  details: ({ request }) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const parts = Object.keys(body).sort();
    return {
      set: parts.filter((part) => body[part] !== null),
      reset: parts.filter((part) => body[part] === null),
    };
  },
};

export interface TextRouteDeps {
  em: EntityManager;
  events: EventSource;
  /** The public pages' copy, read again after a save. */
  reader?: PublicTextsReader;
}

/** An edition's public texts (introduction, event details, FAQ): staff read them, admins change them. */
export function textRoutes({ em, events, reader }: TextRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();

  router.get('/admin/texts', requireRole('admin', 'reviewer'), async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await publicTextsView(em, edition.id)) satisfies PublicTextsView;
  });

  router.put('/admin/texts', requireRole('admin'), audited('texts.update', TEXTS_AUDIT), async (ctx) => {
    const input = validate(PublicTextsSchema, ctx.request.body);
    const { edition } = await editionOfRequest(ctx, events);
    const view = await savePublicTexts(
      em,
      edition.id,
      input,
      currentUser(ctx).id,
      requestNow(ctx),
      auditOf(ctx),
    );
    reader?.invalidate();
    ctx.body = view satisfies PublicTextsView;
  });

  return router;
}

import Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PublicTextsSchema } from '@schlosstreffen/shared';
import type { PublicTextsView } from '@schlosstreffen/shared/api';
import type { EventSource } from '../../core/editions/edition-events.js';
import { publicTextsView, savePublicTexts, type PublicTextsReader } from '../../core/texts/public-texts.js';
import { currentUser, requestNow, requireRole, type AppState } from '../../http/context.js';
import { editionOfRequest } from '../../http/edition.js';
import { validate } from '../../http/validate.js';

export interface TextRouteDeps {
  em: EntityManager;
  events: EventSource;
  /** The public pages' copy, read again after a save. */
  reader?: PublicTextsReader;
}

/** An edition's public texts (introduction, event details, FAQ): staff read them, admins change them. */
export function textRoutes({ em, events, reader }: TextRouteDeps): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/admin/texts', requireRole('admin', 'reviewer'), async (ctx) => {
    const { edition } = await editionOfRequest(ctx, events);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await publicTextsView(em, edition.id)) satisfies PublicTextsView;
  });

  router.put('/admin/texts', requireRole('admin'), async (ctx) => {
    const input = validate(PublicTextsSchema, ctx.request.body);
    const { edition } = await editionOfRequest(ctx, events);
    const view = await savePublicTexts(em, edition.id, input, currentUser(ctx).id, requestNow(ctx));
    reader?.invalidate();
    ctx.body = view satisfies PublicTextsView;
  });

  return router;
}

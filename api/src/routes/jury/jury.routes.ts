import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  EDITION_MESSAGES,
  JURY_MESSAGES,
  JuryAcceptSchema,
  JuryClassSchema,
  JuryCloseSchema,
  JuryCorrectionSchema,
  JuryJudgeClassesSchema,
  JuryJudgeSchema,
  JurySyncSchema,
} from '@schlosstreffen/shared';
import type {
  JuryAdminView,
  JuryCeremony,
  JuryClassAdminView,
  JuryClassProgress,
  JuryJudgeAdded,
  JuryJudgeView,
  JuryResults,
  JurySyncResult,
  ServerMessage,
} from '@schlosstreffen/shared/api';
import * as v from 'valibot';
import { invalid, notFound } from '../../core/errors.js';
import type { EventSource } from '../../core/editions/edition-events.js';
import {
  acceptJuryInvite,
  addJudge,
  createJuryClass,
  deleteJuryClass,
  juryAdminView,
  removeJudge,
  setJudgeClasses,
  updateJuryClass,
  withdrawInvite,
} from '../../core/jury/jury-admin.js';
import {
  closeJuryClass,
  correctJuryResult,
  juryCeremony,
  juryResultsOf,
  publishJuryResults,
} from '../../core/jury/jury-results.js';
import { classProgress, judgeView, syncJudge } from '../../core/jury/jury-scoring.js';
import { audited, auditOf } from '../../http/audited.js';
import {
  currentUser,
  requestNow,
  requireRole,
  requireUser,
  type AppContext,
  type AppState,
} from '../../http/context.js';
import { strictRouter } from '../../http/router.js';
import { validate } from '../../http/validate.js';

export interface JuryRouteDeps {
  em: EntityManager;
  /** The editions as the api keeps them: a judge's sync reads its edition here. */
  events?: EventSource;
  publicUrl: string;
  /** Seals the invitation link in its mail's queued job. */
  secret: string;
  onOutbox?: () => void;
}

function yearOf(ctx: AppContext): number {
  const raw = ctx.params.year ?? '';
  if (!/^\d{4}$/.test(raw)) throw invalid(EDITION_MESSAGES.yearParam);
  return Number(raw);
}

/** An id in the path: anything but a UUID names nothing (404, as an unknown one). */
function idOf(ctx: AppContext, name: string): string {
  const raw = ctx.params[name] ?? '';
  if (!v.is(v.pipe(v.string(), v.uuid()), raw)) throw notFound();
  return raw;
}

const noStore = (ctx: AppContext) => ctx.set('Cache-Control', 'no-store');

/**
 * The jury: organizers set up classes and judges ('Jury' in the admin area), judges score at the car
 * and sync like the gate, head judges and admins close classes, admins publish and correct; the
 * published results are public.
 */
export function juryRoutes({ em, events, publicUrl, secret, onOutbox }: JuryRouteDeps): Router<AppState> {
  const router = strictRouter<AppState>();
  const admin = requireRole('admin');
  const target = (ctx: AppContext) => ctx.params.year;

  // --- judges -------------------------------------------------------------------------------------
  router.get('/jury', requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = (await judgeView(em.fork(), currentUser(ctx).id, requestNow(ctx))) satisfies JuryJudgeView;
  });

  router.post('/jury/sync', requireUser, async (ctx) => {
    const input = validate(JurySyncSchema, ctx.request.body);
    noStore(ctx);
    const now = requestNow(ctx);
    // The current edition from the api's edition cache (kept current by the database's notices).
    const current = events ? await events.at(now) : undefined;
    ctx.body = (await syncJudge(
      em,
      currentUser(ctx).id,
      input,
      now,
      current && {
        id: current.edition.id,
        name: current.edition.name,
        end: current.end,
        gateOpensAt: current.gateOpensAt,
      },
    )) satisfies JurySyncResult;
  });

  router.get('/jury/classes/:id', requireUser, async (ctx) => {
    noStore(ctx);
    ctx.body = (await classProgress(
      em.fork(),
      idOf(ctx, 'id'),
      currentUser(ctx),
    )) satisfies JuryClassProgress;
  });

  router.post('/jury/classes/:id/close', requireUser, audited('jury.close'), async (ctx) => {
    const id = idOf(ctx, 'id');
    const input = validate(JuryCloseSchema, ctx.request.body ?? {});
    const user = currentUser(ctx);
    await closeJuryClass(em, id, user, input, requestNow(ctx), auditOf(ctx));
    ctx.body = (await classProgress(em.fork(), id, user)) satisfies JuryClassProgress;
  });

  router.post('/jury/accept', requireUser, async (ctx) => {
    const { token } = validate(JuryAcceptSchema, ctx.request.body);
    const result = await acceptJuryInvite(em, token, currentUser(ctx).id, requestNow(ctx));
    if (result === 'invalid') throw invalid(JURY_MESSAGES.inviteInvalid);
    if (result === 'other_address') throw invalid(JURY_MESSAGES.inviteOtherAddress);
    ctx.body = { message: JURY_MESSAGES.inviteAccepted(result.editionName) } satisfies ServerMessage;
  });

  // --- the public results --------------------------------------------------------------------------
  router.get('/editions/:year/results', async (ctx) => {
    const results = await juryResultsOf(em.fork(), yearOf(ctx));
    if (!results) throw notFound(JURY_MESSAGES.noResults(yearOf(ctx)));
    ctx.set('Cache-Control', 'public, max-age=0, must-revalidate');
    ctx.body = results satisfies JuryResults;
  });

  // --- organizers ------------------------------------------------------------------------------------
  const view = async (ctx: AppContext) =>
    (await juryAdminView(em.fork(), yearOf(ctx), requestNow(ctx))) satisfies JuryAdminView;
  const classView = async (ctx: AppContext, id: string) => {
    const found = (await view(ctx)).classes.find((c) => c.id === id);
    if (!found) throw notFound(JURY_MESSAGES.unknownClass);
    return found satisfies JuryClassAdminView;
  };

  router.get('/admin/jury/:year', admin, audited('jury.view', { target }), async (ctx) => {
    const body = await view(ctx);
    await auditOf(ctx).write(em);
    noStore(ctx);
    ctx.body = body;
  });

  router.post('/admin/jury/:year/classes', admin, audited('jury.class_create', { target }), async (ctx) => {
    const input = validate(JuryClassSchema, ctx.request.body);
    const id = await createJuryClass(em, yearOf(ctx), input, requestNow(ctx), auditOf(ctx));
    ctx.status = 201;
    ctx.body = await classView(ctx, id);
  });

  router.patch(
    '/admin/jury/:year/classes/:id',
    admin,
    audited('jury.class_update', { target }),
    async (ctx) => {
      const id = idOf(ctx, 'id');
      const input = validate(JuryClassSchema, ctx.request.body);
      await updateJuryClass(em, yearOf(ctx), id, input, requestNow(ctx), auditOf(ctx));
      ctx.body = await classView(ctx, id);
    },
  );

  router.delete(
    '/admin/jury/:year/classes/:id',
    admin,
    audited('jury.class_delete', { target }),
    async (ctx) => {
      await deleteJuryClass(em, yearOf(ctx), idOf(ctx, 'id'), requestNow(ctx), auditOf(ctx));
      ctx.status = 204;
    },
  );

  router.post('/admin/jury/:year/judges', admin, audited('jury.judge_add', { target }), async (ctx) => {
    const input = validate(JuryJudgeSchema, ctx.request.body);
    const result = await addJudge(
      em,
      yearOf(ctx),
      input,
      requestNow(ctx),
      { publicUrl, secret, invitedBy: currentUser(ctx).id },
      auditOf(ctx),
    );
    if (result.result === 'invited') onOutbox?.();
    ctx.status = 201;
    ctx.body = result satisfies JuryJudgeAdded;
  });

  router.patch(
    '/admin/jury/:year/judges/:userId',
    admin,
    audited('jury.judge_update', { target }),
    async (ctx) => {
      const { classIds } = validate(JuryJudgeClassesSchema, ctx.request.body);
      await setJudgeClasses(em, yearOf(ctx), idOf(ctx, 'userId'), classIds, requestNow(ctx), auditOf(ctx));
      ctx.status = 204;
    },
  );

  router.delete(
    '/admin/jury/:year/judges/:userId',
    admin,
    audited('jury.judge_remove', { target }),
    async (ctx) => {
      await removeJudge(em, yearOf(ctx), idOf(ctx, 'userId'), requestNow(ctx), auditOf(ctx));
      ctx.status = 204;
    },
  );

  router.delete(
    '/admin/jury/:year/invites/:id',
    admin,
    audited('jury.invite_withdraw', { target }),
    async (ctx) => {
      await withdrawInvite(em, yearOf(ctx), idOf(ctx, 'id'), auditOf(ctx));
      ctx.status = 204;
    },
  );

  router.post('/admin/jury/:year/publish', admin, audited('jury.publish', { target }), async (ctx) => {
    await publishJuryResults(em, yearOf(ctx), currentUser(ctx).id, requestNow(ctx), auditOf(ctx));
    onOutbox?.();
    ctx.body = await view(ctx);
  });

  router.post('/admin/jury/:year/correction', admin, audited('jury.correct', { target }), async (ctx) => {
    const input = validate(JuryCorrectionSchema, ctx.request.body);
    await correctJuryResult(em, yearOf(ctx), input, requestNow(ctx), auditOf(ctx));
    onOutbox?.();
    ctx.body = await view(ctx);
  });

  router.get('/admin/jury/:year/ceremony', admin, async (ctx) => {
    noStore(ctx);
    ctx.body = (await juryCeremony(em.fork(), yearOf(ctx))) satisfies JuryCeremony;
  });

  return router;
}

import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditAction } from '@schlosstreffen/shared';
import type { Middleware } from 'koa';
import { auditActorOf, recordAudit, type AuditNote, type AuditRecord } from '../core/audit/audit.js';
import { auditRowExists } from '../core/audit/audit.queries.js';
import type { AuditLog } from '../core/model/audit-log.entity.js';
import type { RouteAudit } from '../core/pending-audit.js';
import type { AppContext, AppState } from './context.js';

/** What a route's audit row says beyond who, when and from where; read when the row is recorded. */
export interface AuditOptions {
  /** What it acted on: an edition year, a vehicle id, a queue name. */
  target?: (ctx: AppContext) => unknown;
  /** Filters and counts: never copies of personal data (a search text is recorded as used, not as typed). */
  details?: (ctx: AppContext) => Record<string, unknown>;
  /** For a route that reads personal data on some requests only: whether this one does. */
  when?: (ctx: AppContext) => boolean;
}

export interface AuditDeclaration extends AuditOptions {
  action: AuditAction;
}

/** Marks the middleware that declares a route's audit (how tests find every audited route). */
export const AUDIT_DECLARATION = Symbol('audit declaration');

export type AuditedMiddleware = Middleware<AppState> & { [AUDIT_DECLARATION]: AuditDeclaration };

const text = (value: unknown): string | null =>
  value === undefined || value === null || value === '' ? null : String(value).slice(0, 200);

/**
 * Declares a route audited, in its declaration after the role check:
 * `router.put('/admin/waitlist/settings', admin, audited('waitlist.settings'), …)`. The route's
 * request carries its pending row (`auditOf(ctx)`) naming the signed-in actor, their role and
 * address (`ctx.ip`, which honours TRUST_PROXY) and the route that matched; the route hands it to
 * the use case or writes it before answering. An answer with a 2xx status whose row is not in the
 * database fails with 500 instead: a route marked audited cannot skip its row.
 */
export function audited(action: AuditAction, options: AuditOptions = {}): AuditedMiddleware {
  const middleware: Middleware<AppState> = async (koaCtx, next) => {
    const ctx = koaCtx as AppContext;
    if (options.when && !options.when(ctx)) return next();
    const user = ctx.state.user;
    if (!user) throw new Error(`audited('${action}') runs before the route's sign-in check`);
    const route = `${ctx.method} ${String(ctx._matchedRoute ?? ctx.path)}`;
    let row: AuditLog | undefined;
    const recordOf = (note: AuditNote = {}): AuditRecord => ({
      ...auditActorOf(user),
      action,
      target: text(note.target !== undefined ? note.target : options.target?.(ctx)),
      details: { ...options.details?.(ctx), ...note.details },
      ip: ctx.ip || null,
      route,
    });
    const audit: RouteAudit = {
      record(tx, note) {
        if (row) throw new Error(`${route} recorded its audit row twice`);
        row = recordAudit(tx, recordOf(note));
        return row;
      },
      async write(em, note) {
        const fork = em.fork();
        audit.record(fork, note);
        await fork.flush();
      },
    };
    ctx.state.audit = audit;
    await next();
    if (ctx.status < 200 || ctx.status >= 300) return;
    const em = RequestContext.getEntityManager() as EntityManager | undefined;
    if (!row?.id || !em || !(await auditRowExists(em, row.id)))
      throw new Error(`${route} answered ${ctx.status} without its audit row`);
  };
  return Object.assign(middleware, { [AUDIT_DECLARATION]: { action, ...options } });
}

/** The pending audit row of a route declared `audited`. */
export function auditOf(ctx: { state: AppState }): RouteAudit {
  const audit = ctx.state.audit;
  if (!audit) throw new Error('the route is not declared audited');
  return audit;
}

/** The edition a staff screen's request worked on, as an audit target. */
export const editionYear = (ctx: AppContext): number | undefined => ctx.state.editionYear;

/** A path parameter, as an audit target. */
export const param =
  (name: string) =>
  (ctx: AppContext): string | undefined =>
    ctx.params[name];

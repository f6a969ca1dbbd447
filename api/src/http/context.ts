import type { EntityManager } from '@mikro-orm/postgresql';
import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { User } from '../core/model/user.entity.js';
import { SESSION_ABSOLUTE_MS } from './session-store.js';
import type { Role } from '@schlosstreffen/shared';
import { forbidden, unauthenticated } from '../core/errors.js';

export interface AppState {
  user?: User;
  /** The request's moment on the app's clock: which edition is current, which window is open. */
  now?: Date;
}

/** The request's moment on the app's clock (the real time when no clock is set). */
export const requestNow = (ctx: { state: AppState }): Date => ctx.state.now ?? new Date();

export type AppContext = RouterContext<AppState>;

/** The parts of koa-session's Session this app uses. */
export interface AppSession {
  userId?: string;
  /** When the user signed in (ms): the absolute lifetime counts from here. */
  signedInAt?: number;
  readonly externalKey?: string;
  regenerate(): Promise<void> | undefined;
}

declare module 'koa' {
  interface DefaultContext {
    session: AppSession | null;
  }
}

/**
 * Puts the signed-in user, if any, on ctx.state.user. A session whose user is gone, or that is
 * older than its absolute lifetime, is ended.
 */
export function loadUser(em: EntityManager, absoluteMs: number = SESSION_ABSOLUTE_MS): Middleware<AppState> {
  return async (ctx, next) => {
    const session = ctx.session;
    const userId = session?.userId;
    if (session && typeof userId === 'string') {
      // Sessions from before the absolute lifetime existed start counting now.
      session.signedInAt ??= Date.now();
      const user = Date.now() - session.signedInAt <= absoluteMs ? await em.findOne(User, userId) : null;
      if (user) ctx.state.user = user;
      else ctx.session = null;
    }
    await next();
  };
}

export const requireUser: Middleware<AppState> = async (ctx, next) => {
  if (!ctx.state.user) throw unauthenticated();
  await next();
};

export function currentUser(ctx: { state: AppState }): User {
  if (!ctx.state.user) throw unauthenticated();
  return ctx.state.user;
}

/** 401 when signed out, 403 when the user's role is not among `roles`. */
export function requireRole(...roles: Role[]): Middleware<AppState> {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw unauthenticated();
    if (!roles.includes(user.role)) throw forbidden();
    await next();
  };
}

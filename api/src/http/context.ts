import type { EntityManager } from '@mikro-orm/postgresql';
import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { User } from '../modules/users/user.entity.js';
import type { Role } from '@schlosstreffen/shared';
import { forbidden, unauthorized } from './errors.js';

export interface AppState {
  user?: User;
}

export type AppContext = RouterContext<AppState>;

/** The parts of koa-session's Session this app uses. */
export interface AppSession {
  userId?: string;
  readonly externalKey?: string;
  regenerate(): Promise<void> | undefined;
}

declare module 'koa' {
  interface DefaultContext {
    session: AppSession | null;
  }
}

/** Puts the signed-in user, if any, on ctx.state.user; a session whose user is gone is ended. */
export function loadUser(em: EntityManager): Middleware<AppState> {
  return async (ctx, next) => {
    const userId = ctx.session?.userId;
    if (typeof userId === 'string') {
      const user = await em.findOne(User, userId);
      if (user) ctx.state.user = user;
      else ctx.session = null;
    }
    await next();
  };
}

export const requireUser: Middleware<AppState> = async (ctx, next) => {
  if (!ctx.state.user) throw unauthorized();
  await next();
};

export function currentUser(ctx: { state: AppState }): User {
  if (!ctx.state.user) throw unauthorized();
  return ctx.state.user;
}

/** 401 when signed out, 403 when the user's role is not among `roles`. */
export function requireRole(...roles: Role[]): Middleware<AppState> {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw unauthorized();
    if (!roles.includes(user.role)) throw forbidden();
    await next();
  };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { User } from '../core/model/user.entity.js';
import { SESSION_ABSOLUTE_MS } from './session-store.js';
import {
  SECOND_FACTOR,
  SECOND_FACTOR_MESSAGES,
  type Role,
  type SecondFactorStep,
} from '@schlosstreffen/shared';
import { needsSecondFactor } from '../core/accounts/second-factor.js';
import { DomainError, forbidden, unauthenticated } from '../core/errors.js';
import type { RouteAudit } from '../core/pending-audit.js';

export interface AppState {
  user?: User;
  /** The request's moment on the app's clock: which edition is current, which window is open. */
  now?: Date;
  /** The year of the edition a staff screen's request worked on (the audit log's subject). */
  editionYear?: number;
  /** The pending audit row of a route declared `audited`. */
  audit?: RouteAudit;
  /**
   * A staff account whose password was right and whose second factor is outstanding: the session
   * counts as signed out everywhere but the second factor's own routes.
   */
  secondFactor?: { user: User; step: SecondFactorStep };
  /** Whether staff sessions need a completed second factor here (STAFF_SECOND_FACTOR). */
  secondFactorRequired?: boolean;
}

/** The request's moment on the app's clock (the real time when no clock is set). */
export const requestNow = (ctx: { state: AppState }): Date => ctx.state.now ?? new Date();

export type AppContext = RouterContext<AppState>;

/** The parts of koa-session's Session this app uses. */
export interface AppSession {
  userId?: string;
  /** When the user signed in (ms): the absolute lifetime counts from here. */
  signedInAt?: number;
  /** When the second factor completed this session's sign-in (ms); unset while it is outstanding. */
  secondFactorAt?: number;
  /** The key the setup screen shows (sealed), until a code of it confirms the setup. */
  secondFactorKey?: string;
  readonly externalKey?: string;
  regenerate(): Promise<void> | undefined;
}

declare module 'koa' {
  interface DefaultContext {
    session: AppSession | null;
  }
}

/** How sessions are read: whether staff need a second factor, and the absolute lifetime. */
export interface SessionPolicy {
  /** STAFF_SECOND_FACTOR: a staff session counts as signed in only once its second factor is done. */
  staffSecondFactor: boolean;
  absoluteMs?: number;
}

/** How long after the password the second factor may follow. */
const SECOND_FACTOR_PENDING_MS = SECOND_FACTOR.pendingMinutes * 60_000;

/**
 * Puts the signed-in user, if any, on ctx.state.user. A session whose user is gone, or that is
 * older than its absolute lifetime, is ended. A staff session whose second factor is outstanding
 * (while the policy asks for one) puts no user there, only `secondFactor`, for at most
 * SECOND_FACTOR.pendingMinutes after the password; then it ends. This holds for sessions started
 * before the setting was on too.
 */
export function loadUser(em: EntityManager, policy: SessionPolicy): Middleware<AppState> {
  const absoluteMs = policy.absoluteMs ?? SESSION_ABSOLUTE_MS;
  return async (ctx, next) => {
    ctx.state.secondFactorRequired = policy.staffSecondFactor;
    const session = ctx.session;
    const userId = session?.userId;
    if (session && typeof userId === 'string') {
      // Sessions from before the absolute lifetime existed start counting now.
      session.signedInAt ??= Date.now();
      const age = Date.now() - session.signedInAt;
      const user = age <= absoluteMs ? await em.findOne(User, userId) : null;
      if (!user) ctx.session = null;
      else if (!needsSecondFactor(user.role, policy.staffSecondFactor) || session.secondFactorAt) {
        ctx.state.user = user;
      } else if (age <= SECOND_FACTOR_PENDING_MS) {
        ctx.state.secondFactor = { user, step: user.secondFactorEnabledAt ? 'code' : 'setup' };
      } else ctx.session = null;
    }
    await next();
  };
}

/** 401 for a request without a signed-in user; it names the second factor when that is what is missing. */
function signedOut(state: AppState): DomainError {
  const pending = state.secondFactor;
  if (!pending) return unauthenticated();
  return new DomainError('unauthenticated', SECOND_FACTOR_MESSAGES.pending, {
    details: { secondFactor: pending.step },
  });
}

export const requireUser: Middleware<AppState> = async (ctx, next) => {
  if (!ctx.state.user) throw signedOut(ctx.state);
  await next();
};

export function currentUser(ctx: { state: AppState }): User {
  if (!ctx.state.user) throw signedOut(ctx.state);
  return ctx.state.user;
}

/**
 * 401 when signed out (or the second factor is outstanding), 403 when the user's role is not among
 * `roles`. A staff session without a completed second factor is refused while the setting is on,
 * whatever put its user on the state.
 */
export function requireRole(...roles: Role[]): Middleware<AppState> {
  return async (ctx, next) => {
    const user = ctx.state.user;
    if (!user) throw signedOut(ctx.state);
    if (
      needsSecondFactor(user.role, ctx.state.secondFactorRequired ?? true) &&
      !ctx.session?.secondFactorAt
    ) {
      throw new DomainError('unauthenticated', SECOND_FACTOR_MESSAGES.pending, {
        details: { secondFactor: user.secondFactorEnabledAt ? 'code' : 'setup' },
      });
    }
    if (!roles.includes(user.role)) throw forbidden();
    await next();
  };
}

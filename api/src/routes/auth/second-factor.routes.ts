import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  SECOND_FACTOR_MESSAGES,
  SecondFactorCodeSchema,
  SecondFactorVerifySchema,
  type SecondFactorStep,
} from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import {
  activateSecondFactor,
  newSecondFactorKey,
  openSecondFactorKey,
  recoveryCodesLeft,
  sealSecondFactorKey,
  secondFactorSetupView,
  spendRecoveryCode,
  verifySecondFactorCode,
} from '../../core/accounts/second-factor.js';
import { auditActorOf, writeAudit } from '../../core/audit/audit.js';
import { conflict, invalid, unauthenticated } from '../../core/errors.js';
import type { User } from '../../core/model/user.entity.js';
import { requestNow, type AppContext, type AppState } from '../../http/context.js';
import { rateLimit, type AccountBackoff, type Limiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import { presentUser } from './user.presenter.js';
import { strictRouter } from '../../http/router.js';

export interface SecondFactorRouteDeps {
  em: EntityManager;
  /** SESSION_SECRET: seals the keys (in the session while set up, in the account's row after). */
  sessionSecret: string;
  /** Codes per client address, as the login's limit. */
  perIp: Limiter;
  /** Codes per account, with the login's backoff: counted before each is checked. */
  perAccount: AccountBackoff;
}

/** The staff sign-in waiting for its second factor, at the step it is at; 401 without one, 409 at another step. */
function pendingAt(ctx: AppContext, step: SecondFactorStep): User {
  const pending = ctx.state.secondFactor;
  if (!pending) throw unauthenticated(SECOND_FACTOR_MESSAGES.notPending);
  if (pending.step !== step) {
    throw conflict(step === 'setup' ? SECOND_FACTOR_MESSAGES.alreadySetUp : SECOND_FACTOR_MESSAGES.notSetUp, {
      secondFactor: pending.step,
    });
  }
  return pending.user;
}

/**
 * The second step of a staff sign-in (while STAFF_SECOND_FACTOR is on): after the password, the
 * key is set up (the first time) or a code given, from the authenticator app or a recovery code.
 * Completing it gives the session a new id, as the password's step did.
 */
export function secondFactorRoutes(deps: SecondFactorRouteDeps): Router<AppState> {
  const { em, sessionSecret } = deps;
  const router = strictRouter<AppState>({ prefix: '/auth/second-factor' });
  const limited = rateLimit(deps.perIp, (ctx) => ctx.ip);

  /** The sign-in is complete: a new session id, the time of the second factor, one audit row. */
  async function complete(ctx: AppContext, user: User, by: 'setup' | 'code' | 'recovery_code') {
    const session = ctx.session;
    if (!session) throw unauthenticated();
    session.secondFactorAt = Date.now();
    session.signedInAt = Date.now();
    delete session.secondFactorKey;
    await session.regenerate();
    await deps.perAccount.reset(user.id);
    await writeAudit(em, {
      ...auditActorOf(user),
      action: 'auth.staff_sign_in',
      target: user.id,
      details: { secondFactor: by },
      ip: ctx.ip,
    });
  }

  // The key to add to the authenticator app: made for this sign-in, kept sealed in its session
  // until a code of it confirms the setup (a new sign-in shows a new key).
  router.get('/setup', async (ctx) => {
    const user = pendingAt(ctx, 'setup');
    const session = ctx.session!;
    let key = session.secondFactorKey ? openSecondFactorKey(sessionSecret, session.secondFactorKey) : null;
    if (!key) {
      key = newSecondFactorKey();
      session.secondFactorKey = sealSecondFactorKey(sessionSecret, key);
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await secondFactorSetupView(key, user.email)) satisfies Api.SecondFactorSetup;
  });

  router.post('/setup', limited, async (ctx) => {
    const user = pendingAt(ctx, 'setup');
    const { code } = validate(SecondFactorCodeSchema, ctx.request.body);
    const box = ctx.session?.secondFactorKey;
    if (!box) throw conflict(SECOND_FACTOR_MESSAGES.setupKeyMissing);
    await deps.perAccount.attempt(user.id);
    const recoveryCodes = await activateSecondFactor(em, {
      userId: user.id,
      key: openSecondFactorKey(sessionSecret, box),
      code,
      at: requestNow(ctx),
      sessionSecret,
    });
    if (!recoveryCodes) {
      throw invalid(SECOND_FACTOR_MESSAGES.wrongCode, [
        { field: 'code', message: SECOND_FACTOR_MESSAGES.wrongCode },
      ]);
    }
    await complete(ctx, user, 'setup');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      user: presentUser(user),
      recoveryCodes,
      message: SECOND_FACTOR_MESSAGES.activated,
    } satisfies Api.SecondFactorActivated;
  });

  router.post('/verify', limited, async (ctx) => {
    const user = pendingAt(ctx, 'code');
    const input = validate(SecondFactorVerifySchema, ctx.request.body);
    // Counted before the code is checked, so parallel guesses cannot outrun the backoff.
    await deps.perAccount.attempt(user.id);
    let left: number | null;
    if (input.code !== undefined) {
      const valid = await verifySecondFactorCode(em, {
        userId: user.id,
        code: input.code,
        at: requestNow(ctx),
        sessionSecret,
      });
      if (!valid) {
        throw invalid(SECOND_FACTOR_MESSAGES.wrongCode, [
          { field: 'code', message: SECOND_FACTOR_MESSAGES.wrongCode },
        ]);
      }
      left = await recoveryCodesLeft(em, user.id);
    } else {
      left = await spendRecoveryCode(em, user.id, input.recoveryCode!);
      if (left === null) {
        throw invalid(SECOND_FACTOR_MESSAGES.wrongRecoveryCode, [
          { field: 'recoveryCode', message: SECOND_FACTOR_MESSAGES.wrongRecoveryCode },
        ]);
      }
    }
    await complete(ctx, user, input.code !== undefined ? 'code' : 'recovery_code');
    ctx.body = {
      user: presentUser(user),
      recoveryCodesLeft: left,
    } satisfies Api.SecondFactorVerified;
  });

  return router;
}

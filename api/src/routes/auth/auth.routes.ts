import type Router from '@koa/router';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ChangePasswordBodySchema,
  ForgotPasswordSchema,
  isStaffRole,
  LoginSchema,
  LinkTokenSchema,
  MESSAGES,
  PRIVACY_MESSAGES,
  ProfileSchema,
  RegisterBodySchema,
  ResetPasswordBodySchema,
  SECOND_FACTOR_MESSAGES,
  VerifyResetTokenSchema,
} from '@schlosstreffen/shared';
import type * as Api from '@schlosstreffen/shared/api';
import { currentUser, requestNow, requireUser, type AppContext, type AppState } from '../../http/context.js';
import { unauthenticated } from '../../core/errors.js';
import { accountKey, consume, rateLimit, type AccountBackoff, type Limiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import type { User } from '../../core/model/user.entity.js';
import { presentCurrentUser, presentUser } from './user.presenter.js';
import type { AuthService } from '../../core/accounts/auth.service.js';
import { needsSecondFactor } from '../../core/accounts/second-factor.js';
import { auditActorOf, writeAudit } from '../../core/audit/audit.js';
import { strictRouter } from '../../http/router.js';

export interface AuthLimiters {
  /** Attempts per client address (however many accounts it tries). */
  loginPerIp: Limiter;
  /** Failures per account (however many addresses they come from), with backoff. */
  loginPerAccount: AccountBackoff;
  register: Limiter;
  forgotPassword: Limiter;
  /** Reset mails per account. */
  forgotPerAccount: Limiter;
  /** Confirmation and email change mails per account and per address. */
  addressMailsPerAccount: Limiter;
  addressMailsPerAddress: Limiter;
}

/**
 * Starts a fresh session for the user: a new session id, so a planted one is never reused. Nothing
 * of an earlier sign-in on the same cookie carries over (a completed second factor included).
 */
async function signIn(ctx: AppContext, user: User): Promise<void> {
  if (!ctx.session) throw unauthenticated();
  ctx.session.userId = user.id;
  ctx.session.signedInAt = Date.now();
  delete ctx.session.secondFactorAt;
  delete ctx.session.secondFactorKey;
  await ctx.session.regenerate();
}

export function authRoutes(
  auth: AuthService,
  limiters: AuthLimiters,
  options: {
    em: EntityManager;
    /** STAFF_SECOND_FACTOR: a staff password sign-in waits for the second factor. */
    staffSecondFactor: boolean;
  },
): Router<AppState> {
  const router = strictRouter<AppState>({ prefix: '/auth' });
  /** Counts a confirmation or change mail against the account and the address it goes to. */
  const countAddressMail = async (userId: string, address: string) => {
    await consume(limiters.addressMailsPerAccount, userId);
    await consume(limiters.addressMailsPerAddress, accountKey(address));
  };

  // With `mailBounced`: the dashboard asks the owner to correct an address mail servers refuse.
  router.get('/user', requireUser, async (ctx) => {
    ctx.body = (await presentCurrentUser(
      options.em.fork(),
      currentUser(ctx),
      requestNow(ctx),
    )) satisfies Api.CurrentUser;
  });

  router.post(
    '/register',
    rateLimit(limiters.register, (ctx) => ctx.ip),
    async (ctx) => {
      const input = validate(RegisterBodySchema, ctx.request.body);
      const user = await auth.register(input);
      await signIn(ctx, user);
      ctx.status = 201;
      ctx.body = presentUser(user);
    },
  );

  // Enumeration-safe: unknown and known accounts answer alike (same text, same time, same limits).
  router.post(
    '/login',
    rateLimit(limiters.loginPerIp, (ctx) => ctx.ip),
    async (ctx) => {
      const input = validate(LoginSchema, ctx.request.body);
      // Counted before the password is checked: parallel attempts cannot outrun the count.
      await limiters.loginPerAccount.attempt(input.email);
      const user = await auth.authenticate(input.email, input.password);
      if (!user) throw unauthenticated(MESSAGES.invalidCredentials);
      await limiters.loginPerAccount.reset(input.email);
      await signIn(ctx, user);
      // Accounts whose address is not confirmed (those from before confirmation existed) are asked now.
      await auth.askForConfirmation(user);
      if (needsSecondFactor(user.role, options.staffSecondFactor)) {
        // The password was right; the session counts as signed in once the second factor follows.
        const step = user.secondFactorEnabledAt ? 'code' : 'setup';
        ctx.body = {
          secondFactor: step,
          message:
            step === 'setup' ? SECOND_FACTOR_MESSAGES.setupRequired : SECOND_FACTOR_MESSAGES.codeRequired,
        } satisfies Api.SecondFactorChallenge;
        return;
      }
      if (isStaffRole(user.role)) {
        await writeAudit(options.em, {
          ...auditActorOf(user),
          action: 'auth.staff_sign_in',
          target: user.id,
          details: { secondFactor: 'off' },
          ip: ctx.ip,
        });
      }
      ctx.body = presentUser(user) satisfies Api.LoginAnswer;
    },
  );

  router.post('/logout', (ctx) => {
    ctx.session = null;
    ctx.body = { message: MESSAGES.loggedOut } satisfies Api.ServerMessage;
  });

  router.post(
    '/forgot-password',
    rateLimit(limiters.forgotPassword, (ctx) => ctx.ip),
    async (ctx) => {
      const input = validate(ForgotPasswordSchema, ctx.request.body);
      await consume(limiters.forgotPerAccount, accountKey(input.email));
      await auth.requestPasswordReset(input.email);
      ctx.body = { message: MESSAGES.resetEmailSent } satisfies Api.ServerMessage;
    },
  );

  router.post('/verify-reset-token', async (ctx) => {
    const input = validate(VerifyResetTokenSchema, ctx.request.body);
    const user = await auth.findByResetToken(input.token);
    ctx.body = { valid: true, email: user.email } satisfies Api.ResetTokenCheck;
  });

  router.post('/reset-password', async (ctx) => {
    const input = validate(ResetPasswordBodySchema, ctx.request.body);
    await auth.resetPassword(input);
    ctx.body = { message: MESSAGES.passwordReset } satisfies Api.ServerMessage;
  });

  router.patch('/profile', requireUser, async (ctx) => {
    const input = validate(ProfileSchema, ctx.request.body);
    const current = currentUser(ctx);
    const user = await auth.updateProfile(current, input, (address) => countAddressMail(current.id, address));
    ctx.body = presentUser(user);
  });

  router.post('/confirm-email', async (ctx) => {
    const { token } = validate(LinkTokenSchema, ctx.request.body);
    const signedIn = ctx.state.user;
    const kind = await auth.confirmEmail(token, signedIn ? ctx.session?.externalKey : undefined);
    ctx.body = {
      message: kind === 'account' ? PRIVACY_MESSAGES.emailConfirmed : PRIVACY_MESSAGES.emailChanged,
    } satisfies Api.ServerMessage;
  });

  router.post('/resend-confirmation', requireUser, async (ctx) => {
    const user = currentUser(ctx);
    if (user.emailVerified) {
      ctx.body = { message: PRIVACY_MESSAGES.alreadyConfirmed } satisfies Api.ServerMessage;
      return;
    }
    await countAddressMail(user.id, user.email);
    await auth.resendConfirmation(user.id);
    ctx.body = { message: PRIVACY_MESSAGES.confirmationSent(user.email) } satisfies Api.ServerMessage;
  });

  // The link in the notice to the old address; no sign-in needed (the old owner may be locked out).
  router.post('/cancel-email-change', async (ctx) => {
    const { token } = validate(LinkTokenSchema, ctx.request.body);
    await auth.cancelEmailChange(token);
    ctx.body = { message: PRIVACY_MESSAGES.emailChangeCancelled } satisfies Api.ServerMessage;
  });

  router.post('/change-password', requireUser, async (ctx) => {
    const input = validate(ChangePasswordBodySchema, ctx.request.body);
    await auth.changePassword(currentUser(ctx).id, input, ctx.session?.externalKey);
    ctx.body = { message: MESSAGES.passwordChanged } satisfies Api.ServerMessage;
  });

  return router;
}

import Router from '@koa/router';
import {
  ChangePasswordBodySchema,
  ForgotPasswordSchema,
  LoginSchema,
  MESSAGES,
  ProfileSchema,
  RegisterBodySchema,
  ResetPasswordBodySchema,
  VerifyResetTokenSchema,
} from '@schlosstreffen/shared';
import type { Context } from 'koa';
import { currentUser, requireUser, type AppContext, type AppState } from '../../http/context.js';
import { unauthorized } from '../../http/errors.js';
import { rateLimit, type Limiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import type { User } from '../users/user.entity.js';
import { presentUser } from '../users/user.presenter.js';
import type { AuthService } from './auth.service.js';

export interface AuthLimiters {
  login: Limiter;
  loginPerIp: Limiter;
  register: Limiter;
  forgotPassword: Limiter;
}

/** Starts a fresh session for the user: a new session id, so a planted one is never reused. */
async function signIn(ctx: AppContext, user: User): Promise<void> {
  if (!ctx.session) throw unauthorized();
  ctx.session.userId = user.id;
  await ctx.session.regenerate();
}

const loginKey = (ctx: Context) => {
  const email = (ctx.request.body as { email?: unknown } | undefined)?.email;
  return `${ctx.ip}|${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
};

export function authRoutes(auth: AuthService, limiters: AuthLimiters): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/auth' });

  router.get('/user', requireUser, (ctx) => {
    ctx.body = presentUser(currentUser(ctx));
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

  router.post(
    '/login',
    rateLimit(limiters.loginPerIp, (ctx) => ctx.ip),
    rateLimit(limiters.login, loginKey),
    async (ctx) => {
      const input = validate(LoginSchema, ctx.request.body);
      const user = await auth.authenticate(input.email, input.password);
      if (!user) throw unauthorized(MESSAGES.invalidCredentials);
      await limiters.login.delete(loginKey(ctx));
      await signIn(ctx, user);
      ctx.body = presentUser(user);
    },
  );

  router.post('/logout', (ctx) => {
    ctx.session = null;
    ctx.body = { message: MESSAGES.loggedOut };
  });

  router.post(
    '/forgot-password',
    rateLimit(limiters.forgotPassword, (ctx) => ctx.ip),
    async (ctx) => {
      const input = validate(ForgotPasswordSchema, ctx.request.body);
      await auth.requestPasswordReset(input.email);
      ctx.body = { message: MESSAGES.resetEmailSent };
    },
  );

  router.post('/verify-reset-token', async (ctx) => {
    const input = validate(VerifyResetTokenSchema, ctx.request.body);
    const user = await auth.findByResetToken(input.token);
    ctx.body = { valid: true, email: user.email };
  });

  router.post('/reset-password', async (ctx) => {
    const input = validate(ResetPasswordBodySchema, ctx.request.body);
    await auth.resetPassword(input);
    ctx.body = { message: MESSAGES.passwordReset };
  });

  router.patch('/profile', requireUser, async (ctx) => {
    const input = validate(ProfileSchema, ctx.request.body);
    const user = await auth.updateProfile(currentUser(ctx), input);
    ctx.body = presentUser(user);
  });

  router.post('/change-password', requireUser, async (ctx) => {
    const input = validate(ChangePasswordBodySchema, ctx.request.body);
    await auth.changePassword(currentUser(ctx).id, input, ctx.session?.externalKey);
    ctx.body = { message: MESSAGES.passwordChanged };
  });

  return router;
}

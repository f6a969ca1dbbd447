import { MESSAGES } from '@schlosstreffen/shared';
import type { Middleware } from 'koa';
import { AppError, forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for mutations: a browser's Origin must be one of ours (Sec-Fetch-Site is the fallback
 * when Origin is absent), and bodies must be JSON, which a cross-site form cannot send.
 */
export function mutationGuard(
  allowedOrigins: string[],
  /** Paths authorised by a token in the URL alone (RFC 8058 one-click unsubscribe posts a form). */
  tokenOnlyPaths: string[] = [],
): Middleware {
  const allowed = new Set(allowedOrigins);
  const exempt = new Set(tokenOnlyPaths);
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method) || exempt.has(ctx.path)) return next();
    const origin = ctx.get('Origin');
    if (origin ? !allowed.has(origin) : ctx.get('Sec-Fetch-Site') === 'cross-site') {
      throw forbidden(MESSAGES.foreignOrigin);
    }
    if (hasBody(ctx.req.headers) && !ctx.is('application/json')) {
      throw new AppError(415, MESSAGES.jsonOnly);
    }
    return next();
  };
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

import { MESSAGES } from '@schlosstreffen/shared';
import type { Middleware } from 'koa';
import { DomainError, forbidden, invalid } from '../core/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for mutations: a browser's Origin must be one of ours (Sec-Fetch-Site is the fallback
 * when Origin is absent), and bodies must be JSON (or a file as bytes), which a cross-site form cannot send.
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
    // A file sent as it is (a bank statement) is application/octet-stream: like JSON, a cross-site
    // form cannot send it without the browser asking first.
    if (hasBody(ctx.req.headers) && !ctx.is('application/json', 'application/octet-stream')) {
      throw new DomainError('unsupported_media_type', MESSAGES.jsonOnly);
    }
    return next();
  };
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * For a site whose PUBLIC_URL is https: a request that arrived over plain HTTP (no TLS proxy in
 * front, or TRUST_PROXY not set for it) gets a clear answer instead of failing on the Secure cookie:
 * pages are redirected to PUBLIC_URL, everything else is refused with a German message.
 */
export function requireHttps(publicUrl: string): Middleware {
  return async (ctx, next) => {
    if (ctx.secure) return next();
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && !ctx.path.startsWith('/api/')) {
      ctx.redirect(`${publicUrl}${ctx.originalUrl}`);
      return;
    }
    throw forbidden(MESSAGES.httpsRequired);
  };
}

/** Whether a parsed JSON body holds U+0000 in any string or key (PostgreSQL text cannot store it). */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

/** Refuses a body with a NUL character with a clear 400 before anything reads it. */
export const rejectNulCharacters: Middleware = async (ctx, next) => {
  if (containsNul((ctx.request as { body?: unknown }).body)) throw invalid(MESSAGES.nulCharacter);
  await next();
};

import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { MESSAGES } from '@schlosstreffen/shared';
import type { Middleware } from 'koa';
import type { Dependency } from '../core/dependencies.js';
import { DomainError, notFound, type DomainErrorCode } from '../core/errors.js';
import { logger } from '../core/logger.js';

/** The one place where a domain error becomes an HTTP status. */
export const STATUS_OF: Record<DomainErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
};

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
}

/** What a request answers while a service it needs is away; clients may try again after a while. */
const UNAVAILABLE: Record<Dependency, string> = {
  database: MESSAGES.databaseUnavailable,
  redis: MESSAGES.queuesUnavailable,
  storage: MESSAGES.storageUnavailable,
};
const RETRY_AFTER_SECONDS = 30;

/**
 * Maps every error to `{ message }` JSON with a German text; nothing internal leaves the server. An
 * error that says PostgreSQL, Redis or S3 is away answers 503 with Retry-After.
 */
export function errorHandler(
  log: (error: unknown, dependency?: Dependency) => void = logFailure,
  unavailable: (error: unknown) => Dependency | undefined = () => undefined,
): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound();
    } catch (error) {
      const missing = unavailable(error);
      const { status, body, retryAfter } = missing
        ? { status: 503, body: { message: UNAVAILABLE[missing] }, retryAfter: RETRY_AFTER_SECONDS }
        : toResponse(error);
      // A missing dependency is one line (it repeats while the service is away); anything else
      // that answers 5xx is logged whole.
      if (missing) log(error, missing);
      else if (status >= 500) log(error);
      ctx.status = status;
      ctx.body = body;
      if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
    }
  };
}

/**
 * The log line of a failed request (the request line itself follows with its status): a missing
 * dependency as a warning with its name, anything else as an error. Both carry the request id.
 */
export function logFailure(error: unknown, dependency?: Dependency): void {
  if (dependency) logger.warn({ dependency, err: error }, 'dependency unavailable');
  else logger.error({ err: error }, 'request failed');
}

function toResponse(error: unknown): { status: number; body: Record<string, unknown>; retryAfter?: number } {
  if (error instanceof DomainError) {
    const body: Record<string, unknown> = { ...error.extra.details, message: error.message };
    if (error.extra.issues) body.issues = error.extra.issues;
    return { status: STATUS_OF[error.code], body, retryAfter: error.extra.retryAfterSeconds };
  }
  if (error instanceof NotFoundError) return { status: 404, body: { message: MESSAGES.notFound } };
  if (error instanceof UniqueConstraintViolationException) {
    return { status: 409, body: { message: MESSAGES.conflict } };
  }
  // Errors raised by koa and its body parser carry an HTTP status.
  const http = error as HttpLikeError;
  const status = http.status ?? http.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return { status, body: { message: MESSAGES.payloadTooLarge } };
    if (status === 415) return { status, body: { message: MESSAGES.jsonOnly } };
    if (status === 400 && (http.type === 'entity.parse.failed' || error instanceof SyntaxError)) {
      return { status, body: { message: MESSAGES.malformedJson } };
    }
    return { status, body: { message: status === 404 ? MESSAGES.notFound : MESSAGES.badRequest } };
  }
  return { status: 500, body: { message: MESSAGES.internal } };
}

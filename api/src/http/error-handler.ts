import { NotFoundError, UniqueConstraintViolationException } from '@mikro-orm/core';
import { MESSAGES } from '@schlosstreffen/shared';
import type { Middleware } from 'koa';
import { AppError } from './errors.js';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
}

/** Maps every error to `{ message }` JSON with a German text; nothing internal leaves the server. */
export function errorHandler(log: (error: unknown) => void = console.error): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError(404, MESSAGES.notFound);
    } catch (error) {
      const { status, body, retryAfter } = toResponse(error);
      if (status >= 500) log(error);
      ctx.status = status;
      ctx.body = body;
      if (retryAfter !== undefined) ctx.set('Retry-After', String(retryAfter));
    }
  };
}

function toResponse(error: unknown): { status: number; body: Record<string, unknown>; retryAfter?: number } {
  if (error instanceof AppError) {
    const body: Record<string, unknown> = { ...error.extra.details, message: error.message };
    if (error.extra.issues) body.issues = error.extra.issues;
    return { status: error.status, body, retryAfter: error.extra.retryAfterSeconds };
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

import { MESSAGES } from '@schlosstreffen/shared';

/**
 * What went wrong, independent of any transport. The HTTP edge maps each code to a status in one
 * place (`http/error-handler.ts`); the CLI and the worker read the message.
 */
export type DomainErrorCode =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'rate_limited';

export type FieldIssue = { field: string; message: string };

/** The one error type of the domain: a code and a German message, safe to show to the user. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly extra: {
      issues?: FieldIssue[];
      retryAfterSeconds?: number;
      /** Further fields of the answer, beside `message`. */
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string = MESSAGES.badRequest, issues?: FieldIssue[]) =>
  new DomainError('invalid', message, issues ? { issues } : {});
export const unauthenticated = (message: string = MESSAGES.unauthorized) =>
  new DomainError('unauthenticated', message);
export const forbidden = (message: string = MESSAGES.forbidden) => new DomainError('forbidden', message);
export const notFound = (message: string = MESSAGES.notFound) => new DomainError('not_found', message);
export const conflict = (message: string = MESSAGES.conflict, details?: Record<string, unknown>) =>
  new DomainError('conflict', message, details ? { details } : {});
export const rateLimited = (retryAfterSeconds: number) =>
  new DomainError('rate_limited', MESSAGES.tooManyRequests(retryAfterSeconds), { retryAfterSeconds });
/** An account reached one of its limits (ACCOUNT_LIMITS); room again in `retryAfterSeconds`. */
export const limitReached = (message: string, retryAfterSeconds: number) =>
  new DomainError('rate_limited', message, { retryAfterSeconds });

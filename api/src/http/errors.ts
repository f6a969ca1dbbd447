import { MESSAGES } from '@schlosstreffen/shared';

export type FieldIssue = { field: string; message: string };

/** The one error type routes throw; the error handler maps it to JSON. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429,
    message: string,
    readonly extra: {
      issues?: FieldIssue[];
      retryAfterSeconds?: number;
      /** Further fields of the answer, beside `message`. */
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string = MESSAGES.badRequest, issues?: FieldIssue[]) =>
  new AppError(400, message, issues ? { issues } : {});
export const unauthorized = (message: string = MESSAGES.unauthorized) => new AppError(401, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string = MESSAGES.conflict) => new AppError(409, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, MESSAGES.tooManyRequests(retryAfterSeconds), { retryAfterSeconds });

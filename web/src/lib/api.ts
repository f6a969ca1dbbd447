import type { FieldIssue } from '@schlosstreffen/shared';

/**
 * Fetch client for the Schlosstreffen API.
 *
 * Every call sends the session cookie, speaks JSON and sends a body only when one is given.
 * A non-success response throws an {@link ApiError} whose message reads "<status>: <text>";
 * the plain (German) server text is kept in `serverMessage` for toasts, the field issues of a
 * rejected body in `issues`, the whole JSON body (e.g. a result code beside the message) in `body`.
 */

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The server's message (German), or the status text when the body carries none. */
  readonly serverMessage: string;
  /** Whether `serverMessage` came from the body (else it is the status line, e.g. a proxy's 'Bad Gateway'). */
  readonly fromBody: boolean;
  /** The server's message per field of a rejected body (400 `{ message, issues }`). */
  readonly issues: readonly FieldIssue[];
  /** The answer's JSON object, when it was one (its fields beside `message`); else undefined. */
  readonly body: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: number,
    serverMessage: string,
    fromBody = true,
    issues: readonly FieldIssue[] = [],
    body?: Record<string, unknown>,
  ) {
    super(`${status}: ${serverMessage}`);
    this.status = status;
    this.serverMessage = serverMessage;
    this.fromBody = fromBody;
    this.issues = issues;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message for `field` when `error` is an ApiError that names it. */
export function issueFor(error: unknown, field: string): string | undefined {
  return isApiError(error) ? error.issues.find((issue) => issue.field === field)?.message : undefined;
}

function readIssues(value: unknown): FieldIssue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (issue): issue is FieldIssue =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as FieldIssue).field === 'string' &&
      typeof (issue as FieldIssue).message === 'string',
  );
}

/** Last resort when neither the body nor the status line says anything (e.g. HTTP/2 has no status text). */
const unknownErrorText = 'Ein Fehler ist aufgetreten.';

async function readErrorText(
  response: Response,
): Promise<{ text: string; fromBody: boolean; issues?: FieldIssue[]; body?: Record<string, unknown> }> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // Body unreadable (aborted, network error): fall through to the status text.
  }
  const trimmed = text.trim();
  if (trimmed !== '') {
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('json') || trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        const body =
          typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
            ? (parsed as Record<string, unknown>)
            : undefined;
        if (body && 'message' in body) {
          const { message } = body;
          if (typeof message === 'string' && message.trim() !== '') {
            const issues = 'issues' in body ? readIssues(body.issues) : [];
            return { text: message, fromBody: true, issues, body };
          }
        }
        if (body) return { text: response.statusText || unknownErrorText, fromBody: false, body };
      } catch {
        // Not JSON after all: treated below like any other body.
      }
    } else if (contentType.startsWith('text/plain')) {
      return { text: trimmed, fromBody: true };
    }
  }
  return { text: response.statusText || unknownErrorText, fromBody: false };
}

async function readBody<T>(response: Response): Promise<T> {
  if (response.status === 204 || response.status === 205) return undefined as T;
  const text = await response.text();
  if (text === '') return undefined as T;
  return JSON.parse(text) as T;
}

/** Rewrites a request's path before it goes out; the admin area adds its chosen edition. */
let rewritePath: (path: string) => string = (path) => path;

/** Sets the rewriting of request paths (the admin area's edition switch, loaded with that area only). */
export function setPathRewriter(rewrite: (path: string) => string): void {
  rewritePath = rewrite;
}

/**
 * Sends one request to the API. `body` is JSON-encoded and sent only when it is not `undefined`.
 * Resolves with the parsed JSON response, or `undefined` for an empty response (204).
 */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(rewritePath(path), {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: init.signal,
  });

  if (!response.ok) {
    const { text, fromBody, issues, body: errorBody } = await readErrorText(response);
    throw new ApiError(response.status, text, fromBody, issues, errorBody);
  }
  return readBody<T>(response);
}

/** The default read: GET on the path, parsed as JSON. A 401 throws like every other failure. */
export function apiGet<T>(path: string, init?: { signal?: AbortSignal }): Promise<T> {
  return apiRequest<T>('GET', path, undefined, init);
}

export const api = {
  get: apiGet,
  post: <T = unknown>(path: string, body?: unknown) => apiRequest<T>('POST', path, body),
  put: <T = unknown>(path: string, body?: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T = unknown>(path: string, body?: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T = unknown>(path: string, body?: unknown) => apiRequest<T>('DELETE', path, body),
};

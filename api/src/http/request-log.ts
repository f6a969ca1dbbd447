import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { logger, requestIdOf, withLogContext } from '../core/logger.js';
import type { AppState } from './context.js';
import { routeOf } from './metrics.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What one request line holds: no path beyond the route, no query, no address, no header. */
export interface RequestLine {
  method: string;
  /** The route as its router defines it (`/api/vehicles/:id`), `web` or `unmatched`. */
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The signed-in account, by id. */
  userId?: string;
}

/** Logs one answered request: `info`; `error` for a 5xx, `warn` for a 503 (a dependency away). */
export function logRequest(line: RequestLine): void {
  if (line.status < 500) logger.info(line, 'request');
  else if (line.status === 503) logger.warn(line, 'request');
  else logger.error(line, 'request');
}

/** Answers whose request line is taken care of (`logAnswer`). */
const logged = new WeakSet<ServerResponse>();

const elapsedMs = (started: number) => Math.round((performance.now() - started) * 10) / 10;

/**
 * The request's id: behind a trusted proxy (`TRUST_PROXY` above 0) its `X-Request-Id` when that is a
 * sane token, else a new one; a client's own header never names its request.
 */
const requestIdFor = (req: IncomingMessage, fromProxy: boolean) =>
  requestIdOf(fromProxy ? req.headers['x-request-id'] : undefined);

/**
 * The first middleware: takes the request id from a trusted proxy or makes one, answers it in
 * `X-Request-Id`, runs the request with it (its log lines and the outbox rows it writes carry it)
 * and logs the request once its answer is sent.
 */
export function requestLogging(): Middleware<AppState> {
  return (ctx, next) => {
    // Handed on by the public list's fast path, which logs it already.
    if (logged.has(ctx.res)) {
      return withLogContext({ requestId: String(ctx.res.getHeader(REQUEST_ID_HEADER)) }, next);
    }
    const started = performance.now();
    const requestId = requestIdFor(ctx.req, ctx.app.proxy);
    ctx.set(REQUEST_ID_HEADER, requestId);
    // Once the answer is out (or the client went away): the status and route are final then.
    ctx.res.once('close', () =>
      logRequest({
        method: ctx.method,
        route: routeOf(ctx),
        status: ctx.res.statusCode,
        durationMs: elapsedMs(started),
        requestId,
        userId: ctx.state.user?.id,
      }),
    );
    return withLogContext({ requestId }, next);
  };
}

/**
 * For answers given outside the middleware (the public list from memory): the request id answered
 * and the request logged, as `requestLogging` does (`fromProxy`: the app's `proxy`). Returns the
 * id; call before the head is written.
 */
export function logAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  fromProxy: boolean,
): string {
  const started = performance.now();
  const requestId = requestIdFor(req, fromProxy);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  logged.add(res);
  res.once('close', () =>
    logRequest({
      method: req.method ?? 'GET',
      route,
      status: res.statusCode,
      durationMs: elapsedMs(started),
      requestId,
    }),
  );
  return requestId;
}

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import path from 'node:path';
import type Koa from 'koa';
import type { AppState } from './context.js';
import { logAnswer } from './request-log.js';
import { WEB, type HttpMetrics } from './metrics.js';
import { basePolicyOf, cachedPageHeaders, type PageCache, type PageCoding } from './page-cache.js';
import type { GateFirst } from './gate-first.js';
import { BODY_HEADERS, codingNegotiation, PER_ANSWER_HEADERS, pathOf } from './replay.js';
import { isKeptPage } from './serve-web.js';

/** What an answer sets for itself; every other header is the one every answer carries (helmet's). */
const OWN_HEADERS = new Set<string>([
  ...PER_ANSWER_HEADERS,
  ...BODY_HEADERS,
  'last-modified',
  'content-security-policy',
]);

/** A built file as the stack answered it for one Accept-Encoding: its headers and bytes. */
interface KeptFile {
  headers: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
  body: Buffer;
}

/** The session cookie's name: a request that carries it is answered by the stack (it may be signed in). */
const signedInMaybe = (req: IncomingMessage, sessionCookie: string) => {
  const cookie = req.headers.cookie;
  return cookie !== undefined && cookie.includes(`${sessionCookie}=`);
};

/** A built file's path: an extension, not the API, stored objects or the queue dashboard. */
const isFilePath = (pathname: string) =>
  path.extname(pathname) !== '' &&
  !pathname.includes('..') &&
  pathname !== '/index.html' &&
  !/^\/(api|objects|admin\/queues)\//.test(pathname);

/**
 * The built web client's files and the pages kept for visitors who are not signed in, answered
 * before the middleware, from memory, with the bytes and headers the stack sends: no session is
 * read, no file is statted, nothing is compressed per request.
 *
 * - Pages: GET and HEAD of a kept page without a query and without the session cookie, while the
 *   cache holds it (`PageCache.peek`); the headers every answer carries are taken from the stack's
 *   own answer to such a page, the page's own (ETag, CSP with its hashes, Vary, Cache-Control,
 *   Content-Encoding) are the cache's, as the stack sets them.
 * - Files (`files`): the stack's answer to a file for one Accept-Encoding is kept with its bytes
 *   and replayed for that Accept-Encoding (clients send a handful of distinct ones).
 *
 * Everything else, and a page or file before the stack answered it once, goes to `next`. Freshness
 * (If-None-Match, If-Modified-Since) is Koa's own check on a bare context.
 */
export function withStaticFastPath(
  app: Koa<AppState>,
  next: RequestListener,
  options: {
    pages?: PageCache;
    /**
     * The built client (web/dist) whose files are kept after the stack served them once: its
     * hashed assets (`/assets/`, whose name changes with their content), and with `all` (production,
     * where the build does not change under a running process) every other file too.
     */
    files?: { root: string; all: boolean };
    sessionCookie: string;
    requireHttps: boolean;
    metrics?: HttpMetrics;
    /** While the gate is busy, these answers are given a few per turn of the event loop. */
    gateFirst?: GateFirst;
  },
): RequestListener {
  const { pages, files, metrics, gateFirst } = options;
  /** Learned from the stack's answer to a kept page: every answer's headers and its base policy. */
  let common: OutgoingHttpHeaders | undefined;
  let basePolicy: string | undefined;
  const kept = new Map<string, Map<string, KeptFile>>();
  /** A page's headers with every answer's, once per prepared header set. */
  let withCommon = new WeakMap<OutgoingHttpHeaders, OutgoingHttpHeaders>();
  const merged = (own: OutgoingHttpHeaders) => {
    let headers = withCommon.get(own);
    if (!headers) withCommon.set(own, (headers = { ...common, ...own }));
    return headers;
  };

  const learnPage = (res: ServerResponse) => {
    const policy = basePolicyOf(res);
    if ((res.statusCode !== 200 && res.statusCode !== 304) || !policy) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (!OWN_HEADERS.has(name) && value !== undefined) headers[name] = value;
    }
    common = headers;
    basePolicy = policy;
    withCommon = new WeakMap();
  };

  const learnFile = (pathname: string, acceptEncoding: string, res: ServerResponse) => {
    if (res.statusCode !== 200 || !files) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (!PER_ANSWER_HEADERS.has(name) && value !== undefined) headers[name] = value;
    }
    const coding = headers['content-encoding'];
    const suffix = coding === 'br' ? '.br' : coding === 'gzip' ? '.gz' : '';
    const file = path.join(files.root, decodeURIComponent(pathname) + suffix);
    if (!file.startsWith(files.root + path.sep)) return;
    void readFile(file).then(
      (body) => {
        if (Number(headers['content-length']) !== body.length) return;
        let forPath = kept.get(pathname);
        if (!forPath) kept.set(pathname, (forPath = new Map()));
        if (forPath.size >= 20) forPath.clear();
        const notModified = { ...headers };
        for (const name of ['content-type', 'content-length', 'content-encoding']) delete notModified[name];
        forPath.set(acceptEncoding, { headers, notModified, body });
      },
      () => undefined,
    );
  };

  const codingOf = codingNegotiation(app);

  /** Koa's freshness check of a conditional request against these headers. */
  const fresh = (req: IncomingMessage, res: ServerResponse, headers: OutgoingHttpHeaders) => {
    if (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === undefined) {
      return false;
    }
    const ctx = app.createContext(req, res);
    ctx.status = 200;
    if (headers.etag) ctx.response.etag = String(headers.etag);
    if (headers['last-modified']) ctx.set('Last-Modified', String(headers['last-modified']));
    return ctx.fresh;
  };

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    ok: OutgoingHttpHeaders,
    notModified: OutgoingHttpHeaders,
    body: Buffer,
    startedAt: bigint,
  ) => {
    const give = () => {
      logAnswer(req, res, WEB, app.proxy);
      const status = fresh(req, res, ok) ? 304 : 200;
      if (status === 304) res.writeHead(304, notModified).end();
      else res.writeHead(200, ok).end(req.method === 'HEAD' ? undefined : body);
      metrics?.observe(req.method!, WEB, status, startedAt);
    };
    if (gateFirst) gateFirst.answer(give);
    else give();
  };

  const insecure = (req: IncomingMessage, res: ServerResponse) =>
    options.requireHttps && !app.createContext(req, res).secure;

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next(req, res);
    const url = req.url ?? '/';
    const pathname = pathOf(url);
    const acceptEncoding = req.headers['accept-encoding'] ?? '\0';
    const startedAt = metrics ? process.hrtime.bigint() : 0n;

    if (files && isFilePath(pathname) && pathname === url && (files.all || pathname.startsWith('/assets/'))) {
      const file = kept.get(pathname)?.get(acceptEncoding);
      if (file && !insecure(req, res)) {
        answer(req, res, file.headers, file.notModified, file.body, startedAt);
        return;
      }
      if (!file && req.method === 'GET') res.once('finish', () => learnFile(pathname, acceptEncoding, res));
      return next(req, res);
    }

    if (
      pages &&
      isKeptPage(pathname, url.slice(pathname.length + 1)) &&
      !signedInMaybe(req, options.sessionCookie)
    ) {
      const page = pages.peek(pathname);
      if (page && common && basePolicy && !insecure(req, res)) {
        const [ok, notModified] = cachedPageHeaders(page, codingOf(req, res), basePolicy);
        const coding = ok['content-encoding'] as PageCoding | undefined;
        const body = coding ? page.encoded[coding] : page.body;
        answer(req, res, merged(ok), merged(notModified), body, startedAt);
        return;
      }
      res.once('finish', () => learnPage(res));
    }
    return next(req, res);
  };
}

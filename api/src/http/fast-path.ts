import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import path from 'node:path';
import type Koa from 'koa';
import type { AppState } from './context.js';
import { logAnswer } from './request-log.js';
import { WEB, type HttpMetrics } from './metrics.js';
import { basePolicyOf, cachedPageHeaders, type PageCache, type PageCoding } from './page-cache.js';
import type { GateFirst } from './gate-first.js';
import { Lru } from './lru.js';
import {
  BODY_HEADERS,
  codingNegotiation,
  PER_ANSWER_HEADERS,
  pathOf,
  type Coding,
  type Negotiator,
} from './replay.js';
import { isKeptPage } from './serve-web.js';

/** What an answer sets for itself; every other header is the one every answer carries (helmet's). */
const OWN_HEADERS = new Set<string>([
  ...PER_ANSWER_HEADERS,
  ...BODY_HEADERS,
  'last-modified',
  'content-security-policy',
]);

/** What the built files kept in memory hold at most, headers and bytes together. */
export const KEPT_FILE_BYTES = 64 * 1024 * 1024;

/** A built file as the stack answered it for one negotiated coding: its headers and bytes. */
interface KeptFile {
  /** The file's path, as the request names it. */
  file: string;
  headers: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
  body: Buffer;
}

/** What the kept files hold: the entries of each file (one per coding at most) and their bytes. */
export interface KeptFileStats {
  entries: Map<string, number>;
  bytes: number;
}

/** A header set's bytes, approximately. */
const headerBytes = (headers: OutgoingHttpHeaders) =>
  Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 0);

const sizeOf = (kept: KeptFile) =>
  kept.body.length + headerBytes(kept.headers) + headerBytes(kept.notModified) + 2 * kept.file.length;

/**
 * The coding the stack (koa-send) answers a built file in, where the build wrote that copy: Brotli
 * when it is accepted over none, else gzip likewise, else none.
 */
const sentCoding = (ctx: Negotiator) =>
  ctx.acceptsEncodings('br', 'identity') === 'br'
    ? 'br'
    : ctx.acceptsEncodings('gzip', 'identity') === 'gzip' && 'gzip';

/**
 * Whether a request's path is a file's own name: decoded and normalised, it is the path itself (from
 * the root, no percent-encoding, no empty or dot segment). Any other spelling of a file is the
 * stack's and keeps nothing.
 */
function isOwnName(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  return (
    decoded === pathname &&
    pathname.startsWith('/') &&
    !pathname.endsWith('/') &&
    path.posix.normalize(pathname) === pathname
  );
}

/** The session cookie's name: a request that carries it is answered by the stack (it may be signed in). */
const signedInMaybe = (req: IncomingMessage, sessionCookie: string) => {
  const cookie = req.headers.cookie;
  return cookie !== undefined && cookie.includes(`${sessionCookie}=`);
};

/** A built file's path: an extension, not the API, stored objects or the queue dashboard. */
const isFilePath = (pathname: string) =>
  path.extname(pathname) !== '' &&
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
 * - Files (`files`): the stack's answer to a file, asked for by its own name without a query, is
 *   kept with its bytes per coding negotiated from Accept-Encoding as koa-send does (br, gzip or
 *   identity: three at most per file) and replayed for requests that negotiate the same; a file
 *   without that compressed copy is kept plain for them. Any other spelling of the file is the
 *   stack's and keeps nothing. All kept files together hold at most `maxBytes` (`KEPT_FILE_BYTES`),
 *   the least recently asked for out first.
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
    files?: { root: string; all: boolean; maxBytes?: number };
    sessionCookie: string;
    requireHttps: boolean;
    metrics?: HttpMetrics;
    /** While the gate is busy, these answers are given a few per turn of the event loop. */
    gateFirst?: GateFirst;
  },
): RequestListener & { stats(): KeptFileStats } {
  const { pages, files, metrics, gateFirst } = options;
  /** Learned from the stack's answer to a kept page: every answer's headers and its base policy. */
  let common: OutgoingHttpHeaders | undefined;
  let basePolicy: string | undefined;
  /** Kept files by path and negotiated coding. */
  const kept = new Lru<string, KeptFile>({ maxBytes: files?.maxBytes ?? KEPT_FILE_BYTES, sizeOf });
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

  const keyOf = (file: string, coding: Coding | undefined) => `${file}\n${coding ?? 'identity'}`;

  /**
   * Keeps the stack's answer to a request that negotiated `coding`: in that coding, or plain (a file
   * without a compressed copy), which any such request accepts as well.
   */
  const learnFile = (file: string, coding: Coding | undefined, res: ServerResponse) => {
    if (res.statusCode !== 200 || !files) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (!PER_ANSWER_HEADERS.has(name) && value !== undefined) headers[name] = value;
    }
    const answered = headers['content-encoding'];
    if (answered !== undefined && answered !== coding) return;
    const suffix = answered === 'br' ? '.br' : answered === 'gzip' ? '.gz' : '';
    const full = path.join(files.root, file + suffix);
    if (!full.startsWith(files.root + path.sep)) return;
    void readFile(full).then(
      (body) => {
        if (Number(headers['content-length']) !== body.length) return;
        const notModified = { ...headers };
        for (const name of ['content-type', 'content-length', 'content-encoding']) delete notModified[name];
        kept.set(keyOf(file, coding), { file, headers, notModified, body });
      },
      () => undefined,
    );
  };

  const codingOf = codingNegotiation(app);
  const fileCodingOf = codingNegotiation(app, sentCoding);

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

  const listener: RequestListener = (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next(req, res);
    const url = req.url ?? '/';
    const pathname = pathOf(url);
    const startedAt = metrics ? process.hrtime.bigint() : 0n;

    if (files && isFilePath(pathname) && (files.all || pathname.startsWith('/assets/'))) {
      if (pathname !== url || !isOwnName(pathname)) return next(req, res);
      const coding = fileCodingOf(req, res);
      const file = kept.get(keyOf(pathname, coding));
      if (file && !insecure(req, res)) {
        answer(req, res, file.headers, file.notModified, file.body, startedAt);
        return;
      }
      if (!file && req.method === 'GET') res.once('finish', () => learnFile(pathname, coding, res));
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

  const stats = (): KeptFileStats => {
    const entries = new Map<string, number>();
    for (const [, { file }] of kept) entries.set(file, (entries.get(file) ?? 0) + 1);
    return { entries, bytes: kept.bytes };
  };
  return Object.assign(listener, { stats });
}

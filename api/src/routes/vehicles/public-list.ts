import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type {
  ContentCoding,
  PublicList,
  PublicListReader,
} from '../../core/public-list/public-vehicle.read.js';
import type { AppState } from '../../http/context.js';
import { logAnswer } from '../../http/request-log.js';
import { BODY_HEADERS, CODINGS, codingNegotiation, PER_ANSWER_HEADERS, pathOf } from '../../http/replay.js';
import type { HttpMetrics } from '../../http/metrics.js';

export const PUBLIC_LIST_PATH = '/api/vehicles/public';
export const PUBLIC_LIST_CACHE_CONTROL = 'public, max-age=0, must-revalidate';
/** The codings offered, in the server's order of preference. */
export const PUBLIC_LIST_CODINGS = CODINGS;

/** One ETag per representation: a compressed body is other bytes than the plain one. */
export const publicListEtag = (list: PublicList, coding: ContentCoding | undefined) =>
  coding ? `${list.etag.slice(0, -1)}-${coding}"` : list.etag;

/** What the route sets itself; every other header of its answer is the one every answer carries. */
const ROUTE_HEADERS = new Set<string>([...PER_ANSWER_HEADERS, ...BODY_HEADERS]);

type Representation = 'identity' | ContentCoding;

/**
 * The public list without the middleware: GET and HEAD of exactly PUBLIC_LIST_PATH are answered from
 * the kept list while it is known to be current, with the bytes and headers the route would send
 * (the same negotiation and freshness checks: Koa's own, on a bare context). Everything else, and the
 * list while it is cold, unconfirmed (a change announced, the database away) or before the stack
 * answered it once, goes to `app`'s callback. The headers every answer carries (helmet's) are taken
 * from the stack's own answer to this path, so the two cannot drift apart; the answer does not
 * depend on the session, so none is read or renewed.
 */
export function withPublicListFastPath(
  app: Koa<AppState>,
  reader: PublicListReader,
  /** The site is served over https (PUBLIC_URL): the stack refuses plain HTTP to the api. */
  requireHttps: boolean,
  /** The app's request metrics: an answer from here is observed as the route's would be. */
  metrics?: HttpMetrics,
): RequestListener {
  const callback = app.callback();
  let common: OutgoingHttpHeaders | undefined;
  /** For one list (one per version of the read model), per representation: the 200 and 304 headers. */
  let preparedFor: PublicList | undefined;
  let prepared = new Map<Representation, [ok: OutgoingHttpHeaders, notModified: OutgoingHttpHeaders]>();

  const learn = (res: ServerResponse) => {
    if (res.statusCode !== 200) return;
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (!ROUTE_HEADERS.has(name) && value !== undefined) headers[name] = value;
    }
    common = headers;
  };

  const headersOf = (list: PublicList, coding: ContentCoding | undefined, body: Buffer) => {
    if (preparedFor !== list) {
      preparedFor = list;
      prepared = new Map();
    }
    const key = coding ?? 'identity';
    let answer = prepared.get(key);
    if (!answer) {
      const notModified: OutgoingHttpHeaders = {
        ...common,
        vary: 'Accept-Encoding',
        'cache-control': PUBLIC_LIST_CACHE_CONTROL,
        etag: publicListEtag(list, coding),
      };
      const ok: OutgoingHttpHeaders = {
        ...notModified,
        'content-type': 'application/json; charset=utf-8',
        ...(coding ? { 'content-encoding': coding } : {}),
        'content-length': body.length,
      };
      answer = [ok, notModified];
      prepared.set(key, answer);
    }
    return answer;
  };

  const codingFor = codingNegotiation(app);

  const serve = (req: IncomingMessage, res: ServerResponse, list: PublicList, startedAt: bigint): boolean => {
    // Where the stack refuses plain HTTP, it answers.
    if (!common || (requireHttps && !app.createContext(req, res).secure)) return false;
    // The request id answered and the request logged, as the middleware does for the stack's answers.
    logAnswer(req, res, PUBLIC_LIST_PATH, app.proxy);
    const coding = codingFor(req, res);
    const conditional =
      req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    const write = (body: Buffer) => {
      const [ok, notModified] = headersOf(list, coding, body);
      // Koa's freshness check; without a conditional header the answer is never fresh.
      if (conditional) {
        const ctx = app.createContext(req, res);
        ctx.status = 200;
        ctx.response.etag = String(notModified.etag);
        if (ctx.fresh) {
          res.writeHead(304, notModified).end();
          metrics?.observe(req.method!, PUBLIC_LIST_PATH, 304, startedAt);
          return;
        }
      }
      res.writeHead(200, ok).end(req.method === 'HEAD' ? undefined : body);
      metrics?.observe(req.method!, PUBLIC_LIST_PATH, 200, startedAt);
    };
    if (!coding) {
      write(list.body);
      return true;
    }
    list.encoded(coding).then(write, () => callback(req, res));
    return true;
  };

  return (req, res) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && pathOf(req.url) === PUBLIC_LIST_PATH) {
      const list = reader.current();
      if (list && serve(req, res, list, metrics ? process.hrtime.bigint() : 0n)) return;
      if (req.method === 'GET') res.once('finish', () => learn(res));
    }
    void callback(req, res);
  };
}

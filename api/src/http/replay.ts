import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What the answers written before the middleware (the public list, kept pages, built files) share:
 * which headers are never replayed, the path of a raw request and Koa's own coding negotiation.
 */

/** Written per answer or per connection: never replayed from a kept answer. */
export const PER_ANSWER_HEADERS: ReadonlySet<string> = new Set([
  'set-cookie',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'x-request-id',
]);

/** What an answer that describes its own body sets; with the per-answer ones, never common to all answers. */
export const BODY_HEADERS = [
  'vary',
  'cache-control',
  'etag',
  'content-type',
  'content-encoding',
  'content-length',
] as const;

/** The path of a raw request's URL, without its query. */
export const pathOf = (url = '') => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** The codings offered, in the server's order of preference. */
export const CODINGS = ['br', 'gzip', 'identity'] as const;
export type Coding = 'br' | 'gzip';

/** Koa's negotiation on a request. */
export interface Negotiator {
  acceptsEncodings(...codings: string[]): string | false;
}

/** What the negotiation needs of the app: Koa's context on a bare request. */
interface ContextSource {
  createContext(req: IncomingMessage, res: ServerResponse): Negotiator;
}

/** Koa's choice among the three codings. */
const negotiateCoding = (ctx: Negotiator) => ctx.acceptsEncodings(...CODINGS);

/**
 * Koa's negotiation of Brotli, gzip or none (by default among all three, or as `negotiate` picks),
 * kept per Accept-Encoding header: clients send a handful of distinct ones, and at most 100 are kept.
 */
export function codingNegotiation(
  app: ContextSource,
  negotiate: (ctx: Negotiator) => string | false = negotiateCoding,
): (req: IncomingMessage, res: ServerResponse) => Coding | undefined {
  const codings = new Map<string, Coding | undefined>();
  return (req, res) => {
    const header = req.headers['accept-encoding'];
    const key = header === undefined ? '\0' : header;
    if (codings.has(key)) return codings.get(key);
    const negotiated = negotiate(app.createContext(req, res));
    const coding = negotiated === 'br' || negotiated === 'gzip' ? negotiated : undefined;
    if (codings.size >= 100) codings.clear();
    codings.set(key, coding);
    return coding;
  };
}

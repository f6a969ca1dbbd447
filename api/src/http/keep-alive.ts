import type { Server } from 'node:http';

/**
 * How long the api keeps an idle connection open. Clients and proxies reuse a kept-alive connection
 * for up to about a minute (browsers, load balancers at 60 s); Node's default of 5 s closes it under
 * them, and a request sent at that moment fails with a reset. The server outlasts them instead.
 */
export const KEEP_ALIVE_MS = 65_000;

/** Sets the api's idle and header timeouts: headers must arrive within a second after the idle time. */
export function keepConnectionsAlive(server: Server, keepAliveMs = KEEP_ALIVE_MS): Server {
  server.keepAliveTimeout = keepAliveMs;
  // Node requires headersTimeout above keepAliveTimeout, or a slow first line races the idle close.
  server.headersTimeout = keepAliveMs + 1_000;
  return server;
}

import { ConnectionException, DriverException } from '@mikro-orm/core';

/** The services the app cannot answer without. */
export type Dependency = 'database' | 'redis' | 'storage';

/** Socket errors: the service is not there, or stopped answering. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** PostgreSQL's connection exceptions (08…) and shutdowns (57P01–57P03). */
const DATABASE_CODES = /^(08\d{3}|57P0[1-3])$/;
const DATABASE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command/i;
const REDIS_MESSAGES =
  /Stream isn't writeable|Connection is closed|Command timed out|max retries per request|Redis is not ready/i;

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string;
  port?: number;
  cause?: unknown;
  errors?: unknown[];
  stack?: string;
  $metadata?: { httpStatusCode?: number };
}

/** A socket error raised inside the PostgreSQL client (e.g. a connection reset while it restarts). */
const PG_CLIENT_STACK = /node_modules\/pg(-pool|-protocol)?\//;

/** The error, its causes and the members of an AggregateError (ECONNREFUSED on ::1 and 127.0.0.1). */
function* chain(error: unknown, depth = 0): Generator<ErrorLike> {
  if (!error || typeof error !== 'object' || depth > 5) return;
  const e = error as ErrorLike;
  yield e;
  yield* chain(e.cause, depth + 1);
  for (const member of e.errors ?? []) yield* chain(member, depth + 1);
}

const portOf = (url: string) => {
  const parsed = new URL(url);
  return Number(parsed.port || { 'postgres:': 5432, 'redis:': 6379, 'https:': 443 }[parsed.protocol] || 80);
};

/**
 * Tells which service an error says is missing, or undefined for any other error. Errors of the S3
 * client carry `$metadata`; ioredis and pg have their own words; bare socket errors are told apart
 * by the port they were connecting to.
 */
export function dependencyClassifier(
  urls: Record<Dependency, string | undefined>,
): (error: unknown) => Dependency | undefined {
  const byPort = new Map<number, Dependency>();
  for (const [dependency, url] of Object.entries(urls) as [Dependency, string | undefined][]) {
    if (url) byPort.set(portOf(url), dependency);
  }
  return (error) => {
    for (const e of chain(error)) {
      if (e.$metadata) {
        const status = e.$metadata.httpStatusCode;
        if (status === undefined || status >= 500) return 'storage';
        return undefined;
      }
      if (e instanceof ConnectionException) return 'database';
      if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(e.message ?? '')) return 'redis';
      if (e.code && DATABASE_CODES.test(e.code)) return 'database';
      if (DATABASE_MESSAGES.test(e.message ?? '')) return 'database';
      if (e.code && NETWORK_CODES.has(e.code)) {
        if (e.port !== undefined) return byPort.get(e.port);
        // A reset socket names no port: the database's client raised it, or MikroORM wrapped it.
        if (e instanceof DriverException || PG_CLIENT_STACK.test(e.stack ?? '')) return 'database';
      }
    }
    return undefined;
  };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Prometheus metrics with prom-client, the Node client the Prometheus project lists: every name
 * starts with `schlosstreffen_`, the process defaults (CPU, memory, event loop, GC) included.
 */
export const METRIC_PREFIX = 'schlosstreffen_';

/**
 * A registry of the process's own, never prom-client's global one, so tests can build apps and
 * workers again and again: the process defaults and whatever the caller registers on it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return registry;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header is `Bearer <token>`. The token is compared in constant time:
 * both sides are hashed first, so neither a wrong length nor a wrong first byte answers sooner.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer +([\x21-\x7e]+) *$/i.exec(header ?? '')?.[1];
  const same = timingSafeEqual(digest(sent ?? ''), digest(token));
  return sent !== undefined && same;
}

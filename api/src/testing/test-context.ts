import type Koa from 'koa';
import type { Redis } from 'ioredis';
import type { inject } from 'vitest';
import type { Role } from '@schlosstreffen/shared';
import type { ApiConfig } from '../core/config.js';
import type { EditionEvent } from '../core/editions/edition-events.js';
import type { Orm } from '../core/db/orm.js';
import type { Queues } from '../core/outbox/queues.js';
import type { OutboxRelay } from '../core/outbox/relay.js';
import type { AppState } from '../http/context.js';
import type { TestClient } from './http-client.js';

/**
 * What a test file gets from `createTestContext` (context.ts): its own API, database and Redis
 * prefix. A module of its own, so the factories and the world can take it without importing the harness.
 */

export interface SignedIn {
  client: TestClient;
  id: string;
  email: string;
}

export interface TestContext {
  config: ApiConfig;
  /** The test database's first edition (current unless a test makes another current), described by `config.event`. */
  event: EditionEvent;
  orm: Orm;
  redis: Redis;
  queues: Queues;
  relay: OutboxRelay;
  /** Unique per test file: BullMQ and rate-limit keys live under it. */
  prefix: string;
  baseUrl: string;
  services: ReturnType<typeof inject<'services'>>;
  env: Record<string, string>;
  client(options?: { origin?: string }): TestClient;
  /** Registers a new account on a client of its own (signed in), confirms its address and gives it the role. */
  signIn(role?: Role, profile?: Record<string, unknown>): Promise<SignedIn>;
  /** Clears the rate-limit counters, so one test's requests do not count against the next. */
  resetRateLimits(): Promise<void>;
  /** The pg pool's clients: all, idle and waiting requests (a leaked client stays counted, not idle). */
  poolStats(): { total: number; idle: number; waiting: number };
  /** The app as served: its middleware and routers (the permission matrix reads the routes from it). */
  app: Koa<AppState>;
  close(): Promise<void>;
}

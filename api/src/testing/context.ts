import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Options } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createApp } from '../app.js';
import { loadApiConfig } from '../core/config.js';
import { DRIVER_OPTIONS, initOrm } from '../core/db/orm.js';
import { createS3Client } from '../core/storage/s3.js';
import { closeQueues, createQueues } from '../core/outbox/queues.js';
import { OutboxRelay } from '../core/outbox/relay.js';
import { connectRedis, whenReady } from '../core/redis.js';
import { adminQuery, cloneDatabase } from './database.js';
import { EVENT_START_INSTANT, EventEnvSchema } from '@schlosstreffen/shared';
import { EditionEvents } from '../core/editions/edition-events.js';
import { describeFirstEdition, firstEdition } from './editions.js';
import { User } from '../core/model/user.entity.js';
import { registerUser } from './factories.js';
import { TestClient } from './http-client.js';
import type { TestContext } from './test-context.js';
import './services.js';

export const TEST_ORIGIN = 'http://localhost:3000';

/** Noon on the day of the default event: a clock at which the gates take scans. */
export const EVENT_DAY_NOON = new Date(Date.parse(EVENT_START_INSTANT) + 2 * 3600 * 1000);

/**
 * The app's clock in tests unless one is given: a moment inside the default first edition's
 * application window (open from the start, deadline 31 March 2026), so no test depends on today.
 */
export const APPLYING_NOON = new Date('2026-03-02T12:00:00+01:00');

/** A clock a test moves: the app reads `now`; `during` does some work at another moment. */
export function testClock(start: Date = APPLYING_NOON) {
  let current = start;
  return {
    now: () => current,
    set(at: Date) {
      current = at;
    },
    async during<T>(at: Date, work: () => Promise<T>): Promise<T> {
      const before = current;
      current = at;
      try {
        return await work();
      } finally {
        current = before;
      }
    },
  };
}

/** What the harness reads of the app's pg pool. */
interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The API in-process on a real HTTP port, with its own database and Redis prefix (the S3 bucket is shared; keys are unique). */
export async function createTestContext(
  options: {
    relay?: boolean;
    ormOptions?: Omit<Options, 'clientUrl'>;
    /** Extra environment variables for the API's configuration. */
    env?: Record<string, string>;
    /**
     * Rewrites the addresses the app (not the harness) uses for PostgreSQL, Redis and S3, e.g. to
     * go through a chaos proxy that a test switches off.
     */
    through?: Partial<Record<'database' | 'redis' | 's3', (url: string) => string>>;
    /** DATABASE_DIRECT_URL is the test's database as it is, where `through` leads DATABASE_URL to a pooler. */
    directDatabase?: boolean;
    /**
     * The app's clock: the current edition, its application window, online check-ins and the gate
     * window; APPLYING_NOON when unset.
     */
    now?: () => Date;
  } = {},
): Promise<TestContext> {
  const services = inject('services');
  const id = randomBytes(5).toString('hex');
  // Named after the run's template, so the global teardown can drop what a failed file left behind.
  const dbName = `${services.templateDb.replace('template', 'test')}_${id}`;
  const databaseUrl = await cloneDatabase(services.databaseUrl, services.templateDb, dbName);
  const via = (kind: 'database' | 'redis' | 's3', url: string) => options.through?.[kind]?.(url) ?? url;
  const prefix = `t${id}`;
  const env = {
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_ORIGIN,
    DATABASE_URL: via('database', databaseUrl),
    ...(options.directDatabase ? { DATABASE_DIRECT_URL: databaseUrl } : {}),
    REDIS_URL: via('redis', services.redisUrl),
    REDIS_PREFIX: prefix,
    S3_ENDPOINT: via('s3', services.s3.endpoint),
    S3_REGION: services.s3.region,
    S3_BUCKET: services.s3.bucket,
    S3_ACCESS_KEY_ID: services.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: services.s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: String(services.s3.forcePathStyle),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    SMTP_URL: services.smtpUrl,
    MAIL_FROM: 'Schlosstreffen <noreply@schlosstreffen.test>',
    ...options.env,
  };
  const config = loadApiConfig(env);
  let pool: PoolLike | undefined;
  const orm = await initOrm(config.databaseUrl, {
    directUrl: config.databaseDirectUrl,
    pool: { min: 0, max: 5 },
    driverOptions: { ...DRIVER_OPTIONS, onPoolCreated: (created: PoolLike) => (pool = created) },
    ...options.ormOptions,
  });
  // The test's own event variables describe its first edition, as they would in a new database.
  if (Object.keys(options.env ?? {}).some((name) => name in EventEnvSchema.entries)) {
    await describeFirstEdition(orm.em.fork(), config.event);
  }
  const first = await firstEdition(orm.em.fork());
  const event = { ...config.event, edition: { id: first.id, year: first.year, name: first.name } };
  // The harness's own connection; the app's are the ones its processes use.
  const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
  const appRedis = connectRedis(config.redis, 'requests');
  const producer = connectRedis(config.redis, 'producer');
  await Promise.all([whenReady(appRedis), whenReady(producer)]);
  const s3 = createS3Client(config.s3);
  const queues = createQueues(producer, prefix);
  const relay = new OutboxRelay(orm.em, queues, { intervalMs: 50 });
  if (options.relay !== false) relay.start();
  const app = createApp({
    config,
    em: orm.em,
    redis: appRedis,
    s3,
    redisPrefix: prefix,
    queues,
    onOutbox: () => relay.wake(),
    now: options.now ?? (() => APPLYING_NOON),
    // Read at every request: a test that changes an edition sees it at once.
    events: new EditionEvents(orm.em, 0),
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const client = (clientOptions: { origin?: string } = {}) =>
    new TestClient(baseUrl, { origin: TEST_ORIGIN, ...clientOptions });

  return {
    poolStats: () => ({
      total: pool?.totalCount ?? 0,
      idle: pool?.idleCount ?? 0,
      waiting: pool?.waitingCount ?? 0,
    }),
    app,
    config,
    event,
    orm,
    redis,
    queues,
    relay,
    prefix,
    baseUrl,
    services,
    env,
    client,
    async signIn(role = 'user', profile = {}) {
      const signedIn = client();
      const { user, email } = await registerUser(signedIn, profile);
      const id = (user as { id: string }).id;
      await orm.em.fork().nativeUpdate(User, { id }, { role, emailVerified: true });
      return { client: signedIn, id, email };
    },
    async resetRateLimits() {
      const keys = await redis.keys(`${prefix}:rl:*`);
      if (keys.length) await redis.del(...keys);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await relay.stop();
      await closeQueues(queues);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      appRedis.disconnect();
      producer.disconnect();
      await orm.close();
      await adminQuery(services.databaseUrl, `drop database if exists "${dbName}" with (force)`);
    },
  };
}

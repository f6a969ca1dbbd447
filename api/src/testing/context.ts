import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Options } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createApp } from '../app.js';
import { loadApiConfig, type ApiConfig } from '../config.js';
import { initOrm, type Orm } from '../db/orm.js';
import { createS3Client } from '../lib/s3.js';
import { closeQueues, createQueues, type Queues } from '../outbox/queues.js';
import { OutboxRelay } from '../outbox/relay.js';
import { adminQuery, cloneDatabase } from './database.js';
import { TestClient } from './http-client.js';
import './services.js';

export const TEST_ORIGIN = 'http://localhost:3000';

export interface TestContext {
  config: ApiConfig;
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
  /** Clears the rate-limit counters, so one test's requests do not count against the next. */
  resetRateLimits(): Promise<void>;
  close(): Promise<void>;
}

/** The API in-process on a real HTTP port, with its own database and Redis prefix (the S3 bucket is shared; keys are unique). */
export async function createTestContext(
  options: {
    relay?: boolean;
    ormOptions?: Omit<Options, 'clientUrl'>;
    /** Extra environment variables for the API's configuration. */
    env?: Record<string, string>;
  } = {},
): Promise<TestContext> {
  const services = inject('services');
  const id = randomBytes(5).toString('hex');
  // Named after the run's template, so the global teardown can drop what a failed file left behind.
  const dbName = `${services.templateDb.replace('template', 'test')}_${id}`;
  const databaseUrl = await cloneDatabase(services.databaseUrl, services.templateDb, dbName);
  const env = {
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_ORIGIN,
    DATABASE_URL: databaseUrl,
    REDIS_URL: services.redisUrl,
    S3_ENDPOINT: services.s3.endpoint,
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
  const orm = await initOrm(databaseUrl, { pool: { min: 0, max: 5 }, ...options.ormOptions });
  const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
  const s3 = createS3Client(config.s3);
  const prefix = `t${id}`;
  const queues = createQueues(redis, prefix);
  const relay = new OutboxRelay(orm.em, queues, { intervalMs: 50 });
  if (options.relay !== false) relay.start();
  const app = createApp({
    config,
    em: orm.em,
    redis,
    s3,
    redisPrefix: prefix,
    queues,
    onOutbox: () => relay.wake(),
    log: () => undefined,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    config,
    orm,
    redis,
    queues,
    relay,
    prefix,
    baseUrl,
    services,
    env,
    client: (clientOptions = {}) => new TestClient(baseUrl, { origin: TEST_ORIGIN, ...clientOptions }),
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
      await orm.close();
      await adminQuery(services.databaseUrl, `drop database if exists "${dbName}" with (force)`);
    },
  };
}

/**
 * Services for the integration tests (vitest globalSetup of api and worker). Each comes from the
 * environment when set; else PostgreSQL and Redis from testcontainers when a Docker engine is
 * reachable (or the local defaults), and S3 and SMTP from the embedded dev services.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { s3Env, startEmbeddedS3, startMailCatcher } from './dev-services.js';
import type { S3Settings } from './dev-services.js';

export interface TestServices {
  /** An admin connection; callers create a database or schema per test file. */
  databaseUrl: string;
  redisUrl: string;
  s3: S3Settings;
  smtpUrl: string;
  /** maildev's web inbox and REST API (see `listMails`, `waitForMail`). */
  mailWebUrl: string;
  stop(): Promise<void>;
}

type Env = Record<string, string | undefined>;

/** Only the parts of testcontainers used here: the packages are optional and typed loosely. */
interface StartedContainer {
  getHost(): string;
  getMappedPort(port: number): number;
  stop(): Promise<unknown>;
}
interface StartedPostgres extends StartedContainer {
  getConnectionUri(): string;
}
interface PostgresBuilder {
  withUsername(name: string): PostgresBuilder;
  withPassword(password: string): PostgresBuilder;
  withDatabase(name: string): PostgresBuilder;
  start(): Promise<StartedPostgres>;
}
interface PostgresModule {
  PostgreSqlContainer: new (image: string) => PostgresBuilder;
}
interface ContainerBuilder {
  withExposedPorts(...ports: number[]): ContainerBuilder;
  start(): Promise<StartedContainer>;
}
interface TestcontainersModule {
  GenericContainer: new (image: string) => ContainerBuilder;
}

interface Resolved<T> {
  value: T;
  stop?: () => Promise<unknown>;
}

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export async function resolveTestServices(env: Env = process.env): Promise<TestServices> {
  const docker = hasDocker(env);
  const results = await Promise.allSettled([
    resolveDatabase(env, docker),
    resolveRedis(env, docker),
    resolveS3(env),
    resolveMail(env),
  ] as const);
  const stops = results.flatMap((result) =>
    result.status === 'fulfilled' && result.value.stop ? [result.value.stop] : [],
  );
  const stop = async () => {
    await Promise.allSettled(stops.map((fn) => fn()));
  };
  const [database, redis, s3, mail] = results;
  if (
    database.status === 'rejected' ||
    redis.status === 'rejected' ||
    s3.status === 'rejected' ||
    mail.status === 'rejected'
  ) {
    await stop();
    const failed = results.find((result) => result.status === 'rejected');
    throw failed?.reason;
  }
  return {
    databaseUrl: database.value.value,
    redisUrl: redis.value.value,
    s3: s3.value.value,
    smtpUrl: mail.value.value.smtpUrl,
    mailWebUrl: mail.value.value.webUrl,
    stop,
  };
}

/** The environment variables the api and the worker read, for the resolved services. */
export function testServicesEnv(services: Omit<TestServices, 'stop'>): Record<string, string> {
  return {
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    ...s3Env(services.s3),
    SMTP_URL: services.smtpUrl,
    MAIL_WEB_URL: services.mailWebUrl,
  };
}

async function resolveDatabase(env: Env, docker: boolean): Promise<Resolved<string>> {
  if (env.DATABASE_URL) return { value: env.DATABASE_URL };
  if (!docker) return { value: DEFAULT_DATABASE_URL };
  const { PostgreSqlContainer } = await importTestcontainers<PostgresModule>('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:17-alpine')
    .withUsername('postgres')
    .withPassword('postgres')
    .withDatabase('postgres')
    .start();
  return { value: container.getConnectionUri(), stop: () => container.stop() };
}

async function resolveRedis(env: Env, docker: boolean): Promise<Resolved<string>> {
  if (env.REDIS_URL) return { value: env.REDIS_URL };
  if (!docker) return { value: DEFAULT_REDIS_URL };
  const { GenericContainer } = await importTestcontainers<TestcontainersModule>('testcontainers');
  const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
  return {
    value: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
    stop: () => container.stop(),
  };
}

async function resolveS3(env: Env): Promise<Resolved<S3Settings>> {
  if (env.S3_ENDPOINT) {
    const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
    if (!accessKeyId || !secretAccessKey) {
      throw new Error('S3_ENDPOINT is set, so S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set too.');
    }
    return {
      value: {
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION || 'us-east-1',
        bucket: env.S3_BUCKET || 'schlosstreffen',
        accessKeyId,
        secretAccessKey,
        forcePathStyle: !['false', '0'].includes(env.S3_FORCE_PATH_STYLE ?? ''),
      },
    };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'schlosstreffen-s3-'));
  const { stop, ...settings } = await startEmbeddedS3({ dataDir });
  return {
    value: settings,
    stop: async () => {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function resolveMail(env: Env): Promise<Resolved<{ smtpUrl: string; webUrl: string }>> {
  if (env.SMTP_URL || env.MAIL_WEB_URL) {
    if (!env.SMTP_URL || !env.MAIL_WEB_URL) {
      throw new Error(
        'Set both SMTP_URL and MAIL_WEB_URL (the REST API of the mail catcher the tests read), or neither.',
      );
    }
    return { value: { smtpUrl: env.SMTP_URL, webUrl: env.MAIL_WEB_URL } };
  }
  const { stop, ...urls } = await startMailCatcher();
  return { value: urls, stop };
}

function hasDocker(env: Env): boolean {
  return (
    Boolean(env.DOCKER_HOST) ||
    existsSync('/var/run/docker.sock') ||
    existsSync(path.join(os.homedir(), '.docker/run/docker.sock'))
  );
}

async function importTestcontainers<T>(specifier: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    throw new Error(
      `A Docker engine is reachable, but ${specifier} could not be loaded. Install testcontainers ` +
        '(`npm i -D testcontainers @testcontainers/postgresql`) or set DATABASE_URL and REDIS_URL.',
      { cause: error },
    );
  }
}

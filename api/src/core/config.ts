import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_OPERATOR,
  DEFAULT_RETENTION,
  EventEnvSchema,
  eventOf,
  RETENTION_RULES,
  type EventConfig,
  type RetentionPeriods,
  type RetentionRule,
} from '@schlosstreffen/shared';
import * as v from 'valibot';
import { LOG_FORMATS, LOG_LEVELS, type LogSettings } from './logger.js';
import type { RedisTarget } from './redis.js';

const bool = v.pipe(
  v.optional(v.picklist(['true', 'false', '1', '0']), 'false'),
  v.transform((value) => value === 'true' || value === '1'),
);
const int = (fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.integer(), v.minValue(0));
const url = v.pipe(v.string(), v.url());

/** Who runs the site (Impressum, privacy notice); required in production. */
const OperatorEnvSchema = v.object({
  OPERATOR_NAME: v.optional(v.string()),
  /** Postal address; lines separated by '|' or newlines. */
  OPERATOR_ADDRESS: v.optional(v.string()),
  OPERATOR_EMAIL: v.optional(v.pipe(v.string(), v.email())),
  OPERATOR_PHONE: v.optional(v.string()),
  /** The data protection contact; the operator's email when unset. */
  PRIVACY_CONTACT: v.optional(v.string()),
});

/** Retention periods in days, one variable per rule (RETENTION_<RULE>_DAYS), defaults in shared. */
const retentionVariable = (rule: RetentionRule) =>
  `RETENTION_${rule.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}_DAYS`;

const CommonEnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: int(3000),
  PUBLIC_URL: v.optional(url),
  DATABASE_URL: v.optional(url, 'postgres://postgres@127.0.0.1:5432/schlosstreffen'),
  /**
   * PostgreSQL without a pooler, for what needs a session of its own (LISTEN, migrations and their
   * lock, creating the database, backups) while queries go through DATABASE_URL.
   */
  DATABASE_DIRECT_URL: v.optional(url),
  /** Unset outside production: redis://127.0.0.1:6379, unless REDIS_SENTINELS is set. */
  REDIS_URL: v.optional(url),
  /** Sentinels instead of REDIS_URL: `host:port` entries, comma separated. */
  REDIS_SENTINELS: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^\s*(\[[\da-f:.]+\]|[\w.-]+):\d{1,5}\s*(,\s*(\[[\da-f:.]+\]|[\w.-]+):\d{1,5}\s*)*$/i,
        'host:port entries, comma separated',
      ),
    ),
  ),
  /** The group the Sentinels monitor; required with REDIS_SENTINELS. */
  REDIS_SENTINEL_NAME: v.optional(
    v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/, 'letters, digits and . _ - only')),
  ),
  /** With REDIS_SENTINELS: the password of the primary and replicas, and of the Sentinels. */
  REDIS_PASSWORD: v.optional(v.string()),
  REDIS_SENTINEL_PASSWORD: v.optional(v.string()),
  /** Starts every Redis key of this deployment (queues, rate limits); `st:<database name>` by default. */
  REDIS_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[\w.:-]{1,100}$/, 'letters, digits and . _ : - only, at most 100')),
  ),
  /** fatal, error, warn, info (default), debug, trace or silent. */
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `one of ${LOG_LEVELS.join(', ')}`)),
  /** json (one JSON object a line; the default in production) or pretty (for a terminal; the default in development). */
  LOG_FORMAT: v.optional(v.picklist(LOG_FORMATS, `one of ${LOG_FORMATS.join(', ')}`)),
  S3_ENDPOINT: v.optional(url),
  /** Endpoint the browser uses for presigned uploads when it differs from the server's (containers). */
  S3_PUBLIC_ENDPOINT: v.optional(url),
  S3_REGION: v.optional(v.string(), 'us-east-1'),
  S3_BUCKET: v.optional(v.string(), 'schlosstreffen'),
  S3_ACCESS_KEY_ID: v.optional(v.string()),
  S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  S3_FORCE_PATH_STYLE: v.optional(bool, 'true'),
  SESSION_SECRET: v.optional(v.pipe(v.string(), v.minLength(32))),
  DATA_DIR: v.optional(v.string(), '.data'),
  /** Whether api and worker apply pending migrations at start; false where a release's job runs them. */
  MIGRATE_ON_START: v.optional(bool, 'true'),
  /** Bearer token of the Prometheus metrics (the api's /metrics, the worker's port); unset: no metrics. */
  METRICS_TOKEN: v.optional(
    v.pipe(v.string(), v.regex(/^([\x21-\x7e]{16,200})?$/, '16 to 200 printable characters, no spaces')),
  ),
  ...EventEnvSchema.entries,
  ...OperatorEnvSchema.entries,
});

export interface S3Config {
  endpoint: string;
  publicEndpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export type { EventConfig, InvitationRules } from '@schlosstreffen/shared';

export interface OperatorConfig {
  name: string;
  address: string;
  email: string;
  phone: string | null;
  privacyContact: string;
}

export interface CommonConfig {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  publicUrl: string;
  databaseUrl: string;
  /** DATABASE_DIRECT_URL: where session work goes while DATABASE_URL is a pooler; unset without one. */
  databaseDirectUrl: string | undefined;
  /** REDIS_URL, or REDIS_SENTINELS with REDIS_SENTINEL_NAME. */
  redis: RedisTarget;
  /** Prefix of every Redis key: two deployments on one Redis never see each other's keys. */
  redisPrefix: string;
  s3: S3Config;
  sessionSecret: string;
  dataDir: string;
  /** MIGRATE_ON_START: api and worker migrate the database at start (else `cli migrate` does). */
  migrateOnStart: boolean;
  /** LOG_LEVEL and LOG_FORMAT: what the process logs, and as JSON lines or for a terminal. */
  log: LogSettings;
  event: EventConfig;
  operator: OperatorConfig;
  /** Days per retention rule. */
  retention: RetentionPeriods;
  /** The app's clock (APP_CLOCK): what every rule that depends on the date reads. */
  now: () => Date;
  /** The bearer token that opens the metrics (METRICS_TOKEN); none: metrics are off. */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function parseEnv<S extends v.GenericSchema>(schema: S, env: Env): v.InferOutput<S> {
  const result = v.safeParse(schema, env);
  if (!result.success) {
    const lines = result.issues.map((issue) => `  ${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.output;
}

/** Reads the development session secret from the data dir, creating it on first use. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

function parseRetention(env: Env): RetentionPeriods {
  const retention = { ...DEFAULT_RETENTION };
  const bad: string[] = [];
  for (const rule of Object.keys(RETENTION_RULES) as RetentionRule[]) {
    const raw = env[retentionVariable(rule)];
    if (raw === undefined || raw === '') continue;
    const days = Number(raw);
    if (!Number.isInteger(days) || days < 0) bad.push(`${retentionVariable(rule)}: ${raw}`);
    else retention[rule] = days;
  }
  if (bad.length)
    throw new ConfigError(`Invalid configuration:\n  ${bad.join('\n  ')} (whole days, 0 or more)`);
  return retention;
}

/** Set but empty counts as unset (an empty line of a template or manifest). */
const BLANK_IS_UNSET = [
  'DATABASE_DIRECT_URL',
  'REDIS_URL',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_NAME',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
];

/** REDIS_URL, or the Sentinels of REDIS_SENTINELS; undefined when neither is set. */
function redisTarget(e: v.InferOutput<typeof CommonEnvSchema>): RedisTarget | undefined {
  if (!e.REDIS_SENTINELS) return e.REDIS_URL;
  const invalid = (line: string) => new ConfigError(`Invalid configuration:\n  ${line}`);
  if (e.REDIS_URL) throw invalid('REDIS_URL, REDIS_SENTINELS: set one of them, not both');
  if (!e.REDIS_SENTINEL_NAME) throw invalid('REDIS_SENTINEL_NAME: required with REDIS_SENTINELS');
  const sentinels = e.REDIS_SENTINELS.split(',').map((entry) => {
    const { hostname, port } = new URL(`redis://${entry.trim()}`);
    return { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) };
  });
  return {
    sentinels,
    name: e.REDIS_SENTINEL_NAME,
    ...(e.REDIS_PASSWORD ? { password: e.REDIS_PASSWORD } : {}),
    ...(e.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: e.REDIS_SENTINEL_PASSWORD } : {}),
  };
}

/** `st:<database name>`: deployments on one Redis differ by their databases. */
export function defaultRedisPrefix(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) || 'postgres';
  return `st:${name.replace(/[^\w.-]/g, '_')}`;
}

export function loadCommonConfig(env: Env = process.env): CommonConfig {
  const e = parseEnv(CommonEnvSchema, {
    ...env,
    ...Object.fromEntries(BLANK_IS_UNSET.filter((name) => env[name] === '').map((name) => [name, undefined])),
  });
  const isProduction = e.NODE_ENV === 'production';
  const missing: string[] = [];
  const need = (name: keyof typeof e, value: string | undefined): string => {
    if (value === undefined || value === '') missing.push(name);
    return value ?? '';
  };

  const dataDir = path.resolve(e.DATA_DIR);
  const s3Endpoint = need('S3_ENDPOINT', e.S3_ENDPOINT);
  const s3: S3Config = {
    endpoint: s3Endpoint,
    publicEndpoint: e.S3_PUBLIC_ENDPOINT ?? s3Endpoint,
    region: e.S3_REGION,
    bucket: e.S3_BUCKET,
    accessKeyId: need('S3_ACCESS_KEY_ID', e.S3_ACCESS_KEY_ID),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY', e.S3_SECRET_ACCESS_KEY),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
  const sessionSecret = isProduction
    ? need('SESSION_SECRET', e.SESSION_SECRET)
    : (e.SESSION_SECRET ?? developmentSecret(dataDir));
  if (isProduction) {
    // Production never falls back to local defaults.
    for (const name of ['DATABASE_URL', 'PUBLIC_URL'] as const) need(name, env[name]);
    for (const name of ['OPERATOR_NAME', 'OPERATOR_ADDRESS', 'OPERATOR_EMAIL'] as const)
      need(name, env[name]);
  }
  const redis = redisTarget(e);
  if (isProduction && !redis) missing.push('REDIS_URL (or REDIS_SENTINELS)');
  const retention = parseRetention(env);
  const now = loadClock(env);
  if (missing.length > 0) {
    const hint = isProduction
      ? 'NODE_ENV=production turns the embedded defaults off.'
      : 'Start with `npm start`, which runs the embedded S3 server and mail catcher, or set them.';
    throw new ConfigError(`Missing configuration: ${missing.join(', ')}. ${hint}`);
  }

  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    redis: redis ?? 'redis://127.0.0.1:6379',
    redisPrefix: e.REDIS_PREFIX ?? defaultRedisPrefix(e.DATABASE_URL),
    s3,
    sessionSecret,
    dataDir,
    migrateOnStart: e.MIGRATE_ON_START,
    log: {
      level: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
      format: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' ? 'pretty' : 'json'),
    },
    operator: {
      name: e.OPERATOR_NAME ?? DEFAULT_OPERATOR.name,
      address: (e.OPERATOR_ADDRESS ?? DEFAULT_OPERATOR.address).replaceAll('|', '\n'),
      email: e.OPERATOR_EMAIL ?? DEFAULT_OPERATOR.email,
      phone: e.OPERATOR_PHONE || null,
      privacyContact: e.PRIVACY_CONTACT ?? e.OPERATOR_EMAIL ?? DEFAULT_OPERATOR.privacyContact,
    },
    retention,
    event: eventOf(e),
    now,
    metricsToken: e.METRICS_TOKEN || undefined,
  };
}

const APP_CLOCK_FORMAT = 'APP_CLOCK: an ISO moment with offset, e.g. 2026-11-27T12:00:00+01:00';

/**
 * The app's clock: the real time, or outside production one that starts at APP_CLOCK when the
 * process starts and runs on from there (a demo or browser test at a set moment of the year).
 */
export function loadClock(env: Env = process.env): () => Date {
  const setting = env.APP_CLOCK?.trim();
  if (!setting) return () => new Date();
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  APP_CLOCK: not in production, which runs on the real time',
    );
  }
  const start = v.safeParse(v.pipe(v.string(), v.isoTimestamp()), setting);
  if (!start.success) throw new ConfigError(`Invalid configuration:\n  ${APP_CLOCK_FORMAT}`);
  const offset = Date.parse(start.output) - Date.now();
  return () => new Date(Date.now() + offset);
}

const ApiEnvSchema = v.object({
  /** Reverse proxies in front of the api whose X-Forwarded-For entries are trusted (0: none). */
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) => (value === 'true' ? '1' : value === 'false' ? '0' : value)),
      v.regex(/^\d+$/, 'a number of proxy hops (0, 1, 2, …)'),
      v.transform(Number),
    ),
    '0',
  ),
  WEB_DIST: v.optional(v.string(), 'web/dist'),
  /** Extra origins allowed to send mutations, comma separated (the Vite dev server outside production). */
  ALLOWED_ORIGINS: v.optional(v.string(), ''),
  /** Multiplies every rate limit's allowance (browser tests and benchmarks sign in far more often). */
  RATE_LIMIT_FACTOR: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)), '1'),
  /** The visitors' award: addresses given with votes per network and hour, votes per network and minute. */
  AWARD_ADDRESSES_PER_HOUR: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)),
    '600',
  ),
  AWARD_VOTES_PER_MINUTE: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1)),
    '1200',
  ),
  /**
   * Seconds a stopping api keeps serving, its readiness already failing, before it stops accepting:
   * the time a load balancer needs to stop sending it requests.
   */
  SHUTDOWN_DELAY_SECONDS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(300)),
    '0',
  ),
  /** Reviewers and admins sign in with a second factor (TOTP); on by default in production. */
  STAFF_SECOND_FACTOR: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(['on', 'off', 'true', 'false', '1', '0'], 'on or off (true/false)'),
      v.transform((value) => value === 'on' || value === 'true' || value === '1'),
    ),
  ),
});

export interface BackoffRule {
  /** Failures that cost nothing. */
  free: number;
  /** Each failure after those locks the account for 2^(n − free) seconds, at most this long. */
  maxLockSeconds: number;
  /** Failures are counted over this window (from the first); a success clears them. */
  windowSeconds: number;
}

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

export interface ApiConfig extends CommonConfig {
  /** Trusted proxy hops: the client address is the entry that many places from the right. */
  trustProxy: number;
  webDist: string;
  allowedOrigins: string[];
  /** Reviewers and admins complete every sign-in with a second factor (STAFF_SECOND_FACTOR). */
  staffSecondFactor: boolean;
  /** SHUTDOWN_DELAY_SECONDS: how long a stopping api serves on while its readiness fails. */
  shutdownDelaySeconds: number;
  rateLimits: {
    loginPerIp: RateLimitRule;
    loginPerAccount: BackoffRule;
    register: RateLimitRule;
    forgotPassword: RateLimitRule;
    forgotPerAccount: RateLimitRule;
    /** Confirmation and email change mails an account asks for. */
    addressMailsPerAccount: RateLimitRule;
    /** Confirmation and email change mails to one address, whoever asks. */
    addressMailsPerAddress: RateLimitRule;
    visitorSignUp: RateLimitRule;
    uploads: RateLimitRule;
    /** Addresses given with a vote, per network (IPv4 address, IPv6 /64): a venue's wifi is one. */
    awardAddresses: RateLimitRule;
    /** Votes cast and taken back, per network. */
    awardVotes: RateLimitRule;
  };
}

export function loadApiConfig(env: Env = process.env): ApiConfig {
  const common = loadCommonConfig(env);
  const e = parseEnv(ApiEnvSchema, env);
  const extra = e.ALLOWED_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (!common.isProduction) extra.push('http://localhost:5173');
  return {
    ...common,
    trustProxy: e.TRUST_PROXY,
    webDist: path.resolve(e.WEB_DIST),
    allowedOrigins: [new URL(common.publicUrl).origin, ...extra.map((origin) => new URL(origin).origin)],
    staffSecondFactor: e.STAFF_SECOND_FACTOR ?? common.isProduction,
    shutdownDelaySeconds: e.SHUTDOWN_DELAY_SECONDS,
    rateLimits: {
      loginPerIp: { points: 50 * e.RATE_LIMIT_FACTOR, durationSeconds: 15 * 60 },
      // Five free failures per account, then 2 s, 4 s, 8 s, … up to 15 minutes per further failure.
      loginPerAccount: { free: 5, maxLockSeconds: 15 * 60, windowSeconds: 24 * 3600 },
      register: { points: 10 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      forgotPassword: { points: 5 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      forgotPerAccount: { points: 3 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      addressMailsPerAccount: { points: 5 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      addressMailsPerAddress: { points: 3 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      visitorSignUp: { points: 20 * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      /** Upload signatures per user. */
      uploads: { points: 300 * e.RATE_LIMIT_FACTOR, durationSeconds: 15 * 60 },
      // Generous: hundreds of visitors share one address on the venue's wifi.
      awardAddresses: { points: e.AWARD_ADDRESSES_PER_HOUR * e.RATE_LIMIT_FACTOR, durationSeconds: 60 * 60 },
      awardVotes: { points: e.AWARD_VOTES_PER_MINUTE * e.RATE_LIMIT_FACTOR, durationSeconds: 60 },
    },
  };
}

/** For commands that only touch the database (migrations, roles, seed without photos). */
export function loadDatabaseUrl(env: Env = process.env): string {
  // Commands migrate and hold their session: past the pooler when there is one.
  const e = parseEnv(
    v.object({
      DATABASE_URL: CommonEnvSchema.entries.DATABASE_URL,
      DATABASE_DIRECT_URL: CommonEnvSchema.entries.DATABASE_DIRECT_URL,
    }),
    { DATABASE_URL: env.DATABASE_URL, DATABASE_DIRECT_URL: env.DATABASE_DIRECT_URL || undefined },
  );
  return e.DATABASE_DIRECT_URL ?? e.DATABASE_URL;
}

/**
 * For commands that run date-dependent work (retention, the scheduler's tick): database, periods,
 * and what mails with links need (public URL, secret). The event is the current edition's.
 */
export function loadScheduleConfig(env: Env = process.env): {
  databaseUrl: string;
  retention: RetentionPeriods;
  publicUrl: string;
  sessionSecret: string;
} {
  const e = parseEnv(
    v.object({
      NODE_ENV: CommonEnvSchema.entries.NODE_ENV,
      PORT: CommonEnvSchema.entries.PORT,
      PUBLIC_URL: CommonEnvSchema.entries.PUBLIC_URL,
      SESSION_SECRET: CommonEnvSchema.entries.SESSION_SECRET,
      DATA_DIR: CommonEnvSchema.entries.DATA_DIR,
    }),
    env,
  );
  const isProduction = e.NODE_ENV === 'production';
  if (isProduction && (!e.SESSION_SECRET || !e.PUBLIC_URL)) {
    throw new ConfigError('Missing configuration: SESSION_SECRET, PUBLIC_URL.');
  }
  return {
    databaseUrl: loadDatabaseUrl(env),
    retention: parseRetention(env),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    sessionSecret: e.SESSION_SECRET ?? developmentSecret(path.resolve(e.DATA_DIR)),
  };
}
